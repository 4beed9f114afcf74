// What each call of the page's core asks for, read from its arguments as the caller handed them
// (common/arg.h) into the plain structs the core computes on, and the call's answer composed:
// the bindings convert JS values to Args, call one function here and convert its result, so every
// rule on an argument (which keys, which types, which ranges) and every message naming the input,
// the rule and the value is written here once and tested natively (tests/cpp/report/
// requests_test.cpp). Answers are JSON text through the one writer (common/json_writer.h), or
// floats for the kernels' bulk tensors.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/arg.h"
#include "common/result.h"
#include "hlo/fuse.h"
#include "hlo/table.h"
#include "interp/interp.h"
#include "kernels/kernels.h"
#include "measure/work.h"
#include "python/notebook.h"
#include "python/tracer.h"
#include "report/measurements.h"
#include "report/report.h"
#include "report/roofline.h"

namespace rl::report {

// ---- the model -------------------------------------------------------------------------------

// (peak, bandwidth) read and checked as budgets (model::make_budgets).
Result<model::Budgets> budgets_of(const Arg& peak, const Arg& bandwidth);
// contract(m, k, n, itemsize) as JSON text (contraction_json); an undefined itemsize is the
// seed's 4.
Result<std::string> contract_call(const Arg& m, const Arg& k, const Arg& n, const Arg& itemsize);
// contract_shapes: (a rows, a columns) · (b rows, b columns).
Result<std::string> contract_shapes_call(const Arg& a_rows, const Arg& a_cols, const Arg& b_rows,
                                         const Arg& b_cols, const Arg& itemsize);
// {ridge, rows: [{intensity, bandwidth_ceiling, ceiling, bound}]}. A bandwidth ceiling past the
// largest double (bandwidth · intensity overflows) is written null, as JSON has no infinity:
// web/core.js reads it back as Infinity.
Result<std::string> ceilings_call(const Arg& peak, const Arg& bandwidth, const Arg& intensities);
// [{original, revised, bound_changed}], each a ceiling as ceilings_call writes it.
Result<std::string> traffic_experiment_call(const Arg& peak, const Arg& bandwidth,
                                            const Arg& intensities, const Arg& factor);
// {kind, x, xlabel, ylabel, series: [{label, y}]}: the seed's figure data, in the seed's key order.
Result<std::string> figure_call(const Arg& peak, const Arg& bandwidth, const Arg& intensities);

// ---- the lesson's report -----------------------------------------------------------------------

// {m, k, n, dtype, itemsize, peak, bandwidth, traffic_factor, sizes}: an absent or undefined key
// takes the seed's value; an empty or null dtype follows the itemsize. A refusal's input is the
// key ("params" when it is no object).
Result<Params> lesson_params(const Arg& params);
// {measured?: {gflops, bandwidth_gbs: {level: GB/s, …}, point: {m, k, n, gflops}, other_cores?:
// [{cores, gflops, bandwidth_gbs}], kernels?: [{m, k, n, cores, gflops}]}, answers?: {questionId:
// text, …}}. A refusal's input is "measurements" or "answers".
Result<Extras> lesson_extras(const Arg& extras);
// The lessonReport call: the report as JSON text (report_json), or every refused input (the
// first is the one the call is refused for).
struct LessonReply {
  std::string json;
  std::vector<Refusal> refused;  // empty when json is the report
};
LessonReply lesson_report_call(const Arg& params, const Arg& extras);

// ---- a program under roofs (the analyze view) ---------------------------------------------------

// ({roofs: [{peak, bandwidth, interconnect?}], flops, bytes (arrays or Float64Arrays of numbers),
// totals?: {flops, bytes_accessed, collective_bytes}, range: [xmin, xmax], seconds?,
// measured_seconds?}) → the request program_roofline computes.
Result<RooflineRequest> roofline_request(const Arg& request);
// The parts of ProgramRoofline that are not per-op columns, as one JSON text: {roofs, program,
// measured, bound_names} (bound_names: the names of the bound codes, kBoundCodes's order).
std::string roofline_json(const ProgramRoofline& r);

// ---- kernels, measurements and work for the Worker pool
// ------------------------------------------

// The variant named (a string), or the fastest fused tanh(A·B) variant when undefined or null.
Result<const kernels::MatmulVariant*> variant_of(const Arg& name);
// (m, k, n) read as numbers and checked by kernels::check_matmul_shape.
Result<kernels::MatmulShape> shape_of(const Arg& m, const Arg& k, const Arg& n);
// Copies a Float32Array of exactly `count` floats (what `what` says it holds, "k·n") into `dst`:
// "b must be a Float32Array, got an array", "b must hold 6 floats (k·n), got 5".
Result<bool> copy_floats(const std::string& name, const Arg& floats, std::size_t count,
                         const std::string& what, float* dst);
// (count, seed) → count floats uniform in [−1, 1), the kernels' own generator (xorshift32).
Result<kernels::FloatBuffer> uniform_floats_call(const Arg& count, const Arg& seed);
// (variant?, k, n, b) → B (k×n, row-major) laid out the way the variant's compute reads it.
Result<kernels::FloatBuffer> pack_b_call(const Arg& variant, const Arg& k, const Arg& n,
                                         const Arg& b);
// (variant?, m, k, n, a, b) → C: one whole product on this thread (pack, then every row).
Result<kernels::FloatBuffer> run_kernel_call(const Arg& variant, const Arg& m, const Arg& k,
                                             const Arg& n, const Arg& a, const Arg& b);
// The kernel timed by the harness: (variant?, m, k, n, samples 1..1000, min_sample_seconds?).
Result<std::string> time_kernel_call(const Arg& variant, const Arg& m, const Arg& k, const Arg& n,
                                     const Arg& samples, const Arg& min_sample_seconds);
// {seconds}: the tick of the caller's clock `now` (seconds, read through `read`), by the harness's
// rule (measure::timer_resolution), giving up after give_up_seconds (0..60, default 1).
Result<std::string> timer_resolution_call(const Arg& now, const std::function<double()>& read,
                                          const Arg& give_up_seconds);
// The harness's rules as a state for rounds the caller times (measure::sampler_json).
Result<std::string> sampler_start_call(const Arg& timer_resolution, const Arg& min_sample_seconds,
                                       const Arg& samples);
Result<std::string> sampler_record_call(const Arg& state, const Arg& elapsed);
// {gflops, chains, width} and {level, working_set_bytes, gbs}: this machine's ceilings measured.
Result<std::string> measure_compute_call(const Arg& min_seconds);
Result<std::string> measure_bandwidth_call(const Arg& level, const Arg& min_seconds);
// (factor, {reread?: "after-array" | "right-away", samples?}) → measure_traffic_json's request,
// and that measured.
Result<TrafficRequest> traffic_request(const Arg& factor, const Arg& options);
Result<std::string> measure_traffic_call(const Arg& factor, const Arg& options);
// {kind: 'chains'} | {kind: 'triad', level, workers?} | {kind: 'kernel', variant?, rows, k, n,
// a: Float32Array (rows·k), packed_b: Float32Array (packB's)}.
Result<std::unique_ptr<measure::Work>> make_work(const Arg& spec);
// {kind, flops_per_unit, bytes_per_unit, working_set_bytes, handle}.
std::string work_json(const measure::Work& work, double handle);
// units: an integer from 1 to 2^30.
Result<std::size_t> work_units(const Arg& units);

// ---- text: HLO, Python
// ---------------------------------------------------------------------------

// Room for a text of `size` bytes: none past the core's text limit (hlo::kMaxTextBytes) or what
// its memory has room for now.
Result<bool> text_room(std::size_t size);
// textBuffer's size: a whole number of bytes up to the text limit, with room for it.
Result<std::size_t> text_buffer_size(const Arg& size);
// tableStart's answer: {dialect, rows, errors: [{module_name, error, message, line, column}] (the
// modules that did not verify), handle}.
std::string table_json(const hlo::OpTable& table, double handle);
// tableNext's bytes: from 1 to 2^26.
Result<std::size_t> chunk_bytes(const Arg& bytes);

// (m, k, n, dtype) → the StableHLO of tanh(a @ b) (hlo::emit_workload).
Result<std::string> emit_workload_call(const Arg& m, const Arg& k, const Arg& n, const Arg& dtype);
// fuseText's options {dot_epilogues?: boolean}.
Result<hlo::FuseOptions> fuse_options(const Arg& options);
// lower's options {entry?: string}: the function to lower ("" : the file's first .lower call).
Result<std::string> lower_entry(const Arg& options);
// {text, function}.
std::string lowered_json(const python::Lowered& l);
// The notebook's options {filename?, maxSteps?} (filename only where `with_filename`).
Result<python::NotebookOptions> notebook_options(const Arg& options, bool with_filename);
// A cell's number: an integer from 1 to 1000000.
Result<int> cell_number(const Arg& cell);
// {stdout, error, errorType, line} for a whole notebook; with `cells_run` >= 0 a session's cell:
// {stdout, error, errorType, exception, line, column, file, sourceLine, cellsRun}.
std::string notebook_json(const python::NotebookResult& r, int cells_run = -1);
// [{source, firstLine}].
std::string cells_json(const std::vector<python::NotebookCell>& cells);
// {handle}, {checksum}: a handle or a number alone as an object.
std::string number_json(const char* key, double value);

// ---- runs
// -----------------------------------------------------------------------------------------

// runText's options (report::default_run_options unless told): {inputs?, args?: [{name, bytes:
// Uint8Array}] (.npy files), seed, memory_cap, max_iterations, time_budget_seconds,
// timing_budget_seconds, time_ops, fuse, dot_epilogues (with fuse: false fuses a dot's epilogue
// only as XLA's CPU backend does), on_progress: a function (checked here; the caller hands it
// on)}. A refusal's input names the option.
Result<interp::RunOptions> run_options(const Arg& options);

// ---- exercises
// ------------------------------------------------------------------------------------

// (seed, count 1..100, families?) → the set (exercises::generate).
Result<std::vector<exercises::Exercise>> exercise_set(const Arg& seed, const Arg& count,
                                                      const Arg& families);
Result<std::string> exercises_call(const Arg& seed, const Arg& count, const Arg& families);
// The verdict on one question of a set made again from its seed: the page keeps no answer key.
Result<std::string> check_answer_call(const Arg& seed, const Arg& count, const Arg& families,
                                      const Arg& index, const Arg& question_id, const Arg& answer);
// The verdict for a question built outside the core: {kind: "number"|"choice"|"set", unit, value,
// exact, rel_tolerance, choices?, set?, mistakes?: [{value, feedback}], hints?}.
Result<std::string> check_question_call(const Arg& question, const Arg& answer);
// (files: [{name, text, size?}], set?: {seed, count, families?}) → the class table's JSON text.
Result<std::string> gradebook_call(const Arg& files, const Arg& set);
// (seed, count, families?) → the set as Moodle XML.
Result<std::string> moodle_call(const Arg& seed, const Arg& count, const Arg& families);

}  // namespace rl::report
