#include "report/lesson_check.h"

#include <vector>

#include "hlo/emit.h"
#include "hlo/lower.h"
#include "hlo/parse.h"
#include "interp/interp.h"
#include "model/model.h"

namespace rl::report {

using namespace rl::interp;

Result<LessonIrCheck> check_lesson_ir() {
  using R = Result<LessonIrCheck>;
  using model::lesson::kK;
  using model::lesson::kM;
  using model::lesson::kN;
  auto text = hlo::emit_workload(kM, kK, kN, "f32");
  if (!text) return R::failure("the lesson's StableHLO: " + text.error());
  auto modules = hlo::parse_owned(std::move(text.value()));
  if (!modules) return R::failure("the lesson's StableHLO does not parse: " + modules.error());
  auto program = hlo::lower(modules->at(0));
  if (!program) return R::failure("the lesson's StableHLO does not lower: " + program.error());
  RunOptions options;
  options.inputs = Inputs::Arange;
  options.time_ops = true;
  RunResult run = run_program(program.value(), options);
  if (run.status != "passed") {
    return R::failure("the lesson's StableHLO did not run: " +
                      (run.errors.empty() ? run.status : run.errors.front().message));
  }
  const std::size_t count = static_cast<std::size_t>(kM * kN);
  if (run.values.size() != 1 || !run.values[0].is_tensor() ||
      run.values[0].tensor.type != hlo::ElementType::F32 ||
      static_cast<std::size_t>(run.values[0].tensor.elements()) != count) {
    return R::failure("the lesson's StableHLO must give one f32[32,8] result");
  }
  // The reference on the kernels' own lesson inputs, in double.
  auto buffers = kernels::allocate_matmul(kernels::check_matmul_shape(kM, kK, kN).value());
  if (!buffers) return R::failure_from(buffers);
  kernels::fill_lesson_inputs(buffers.value());
  std::vector<double> reference(count);
  kernels::matmul_reference(kM, kK, kN, buffers->a.data(), buffers->b.data(), true,
                            reference.data());
  LessonIrCheck out;
  out.check = kernels::check_lesson_rule(run.values[0].tensor.as<float>(), reference.data(), count);
  out.inputs = run.inputs;
  for (const auto& t : run.ops) out.ops_seconds += t.seconds;
  out.ops = run.ops.size();
  return R::success(out);
}

}  // namespace rl::report
