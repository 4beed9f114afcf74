// Inside the interpreter: the state of one run (memory, clock, limits, what checks said) and the
// evaluator of functions and regions. Kernels reach it through OpCall.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "interp/fused.h"
#include "interp/interp.h"
#include "interp/kernel.h"

namespace rl::interp {

class Run {
 public:
  Run(const hlo::Program& program, const RunOptions& options);

  const hlo::Program& program() const { return program_; }
  const RunOptions& options() const { return options_; }
  const std::shared_ptr<Memory>& memory() const { return memory_; }

  // Calls function `index` of the module on `args`.
  bool call(std::size_t index, std::vector<Value> args, std::vector<Value>* results);
  // Runs a region of a running function on `args` (its entry block's arguments), in `frame`.
  bool region(const hlo::LFunction& lfn, const hlo::LRegion& r, std::vector<Value>& frame,
              std::vector<Value> args, std::vector<Value>* results);

  bool fail_at(const hlo::Op& op, const std::string& what, const std::string& rule,
               const std::string& got);
  bool fail(Error e);
  bool failed() const { return !error_.message.empty(); }
  const Error& error() const { return error_; }
  bool keep_going(const hlo::Op& op);
  // True while an op is being repeated for timing (it must then not update operands in place).
  bool timing() const { return timing_; }

  void record_check(CheckOutcome c) { checks_.push_back(std::move(c)); }
  std::vector<CheckOutcome>& checks() { return checks_; }
  std::vector<OpTiming>& timings() { return timings_; }
  std::size_t untimed() const { return untimed_; }
  void set_entry(std::size_t index) { entry_ = index; }
  // With time_ops: the timer's resolution as measured here (the harness's target is 100 ticks).
  void set_timer_resolution(double seconds) { timer_resolution_ = seconds; }
  // A fused run: fusions run as units (fused.h); nullptr: op by op.
  void set_fused(const FusedProgram* fused) { fused_ = fused; }
  const FusedProgram* fused() const { return fused_; }
  std::vector<FusionRun>& fusion_runs() { return fusion_runs_; }
  // The values that die at `in` (the program's liveness, moved by the fusions of a fused run).
  const std::vector<hlo::ValueId>* dead_after(const hlo::Instr& in) const {
    if (fused_) {
      bool covered = false;
      const auto* d = fused_->dead_after(in, &covered);
      if (covered) return d;
    }
    return program_.dead_after(in);
  }
  // Runs one op through its kernel, untimed (a fusion's ops that run op by op).
  bool execute_alone(const hlo::LFunction& lfn, const hlo::Instr& instr,
                     std::vector<Value>& frame) {
    return execute(lfn, instr, frame, false);
  }

 private:
  const hlo::Program& program_;
  RunOptions options_;
  std::shared_ptr<Memory> memory_;
  double start_ = 0;
  std::uint64_t ticks_ = 0;  // keep_going calls since the clock was last read
  Error error_;
  std::vector<CheckOutcome> checks_;
  std::vector<OpTiming> timings_;
  std::size_t entry_ = ~std::size_t(0);
  int depth_ = 0;
  bool timing_ = false;
  double timer_resolution_ = 0;
  double timing_spent_ = 0;  // seconds spent timing ops so far (RunOptions::timing_budget_seconds)
  std::size_t untimed_ = 0;  // ops left untimed once that budget was spent
  double progress_at_ = -1;
  const FusedProgram* fused_ = nullptr;
  std::vector<FusionRun> fusion_runs_;
  const hlo::Op* entry_op_ = nullptr;   // the entry op running now (bodies' fusions name it)
  std::vector<char> body_fusion_seen_;  // by plan: a body's fusion already listed
  std::vector<std::vector<std::vector<Value>>> free_frames_;  // by function: frames to reuse
  // Times `once` by the harness's rules (the warm run included): seconds per run and repeats.
  bool time_repeated(const hlo::Op& op, const std::function<bool()>& once, double* seconds,
                     std::uint64_t* repeats);
  bool execute_fusion(
      const hlo::LFunction& lfn, const hlo::Instr& instr, std::size_t plan,
      std::vector<Value>& frame, bool entry,
      bool timed);  // when RunOptions::on_progress was last called (seconds), -1: never

  // Releases the frame slots of the values that die at an instruction (Program::dead, or the
  // fused order's).
  void release(const std::vector<hlo::ValueId>* dead, std::vector<Value>& frame);
  bool execute(const hlo::LFunction& lfn, const hlo::Instr& instr, std::vector<Value>& frame,
               bool timed);
  // Whether a timed op ran as a view of its operand (OpTiming::view).
  bool ran_as_view(const hlo::LFunction& lfn, const hlo::Instr& instr,
                   const std::vector<Value>& frame) const;
};

}  // namespace rl::interp
