// The page's calls read from their arguments as JS hands them (report/requests.h): which keys,
// which rules, which messages, and the answers' JSON, checked here natively where the bindings
// only convert.
#include "report/requests.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "catch.hpp"
#include "common/json_reader.h"
#include "report/run_report.h"

using namespace rl;

namespace {
Arg num(double x) { return Arg::of(x); }
Arg str(const char* s) { return Arg::of(s); }
Arg obj(std::vector<std::pair<std::string, Arg>> members) {
  return Arg::object(std::move(members));
}
Arg arr(std::vector<Arg> items) { return Arg::array(std::move(items)); }
Arg floats(std::size_t n) {
  Arg a;
  a.type = Arg::Type::floats;
  a.class_name = "Float32Array";
  a.floats.assign(n, 0.5f);
  return a;
}
Json parsed(const Result<std::string>& r) {
  REQUIRE(r);
  auto j = parse_json(r.value());
  REQUIRE(j);
  return j.value();
}
std::vector<std::string> keys(const Json& j) {
  std::vector<std::string> out;
  for (const auto& m : j.members) out.push_back(m.first);
  return out;
}
}  // namespace

TEST_CASE("contract reads its dimensions by name and takes the seed's itemsize when undefined",
          "[report][requests]") {
  const Json c = parsed(report::contract_call(num(32), num(16), num(8), Arg()));
  CHECK(c.find("flops")->number == 2 * 32 * 16 * 8);                          // 8192
  CHECK(c.find("minimum_bytes")->number == 4 * (32 * 16 + 16 * 8 + 32 * 8));  // 3584
  CHECK(report::contract_call(num(32), str("16"), num(8), Arg()).error() ==
        "k must be a number, got the string \"16\"");
  CHECK(report::contract_call(num(32), num(16), num(8), Arg::null()).error() ==
        "itemsize must be a number, got object");
  CHECK(report::contract_shapes_call(num(2), Arg(), num(3), num(4), Arg()).error() ==
        "a columns must be a number, got undefined");
}

TEST_CASE(
    "ceilings: the ridge, each row in the seed's keys, and an overflowing bandwidth "
    "ceiling written null",
    "[report][requests]") {
  const Json c = parsed(report::ceilings_call(num(100), num(20), arr({num(1), num(10)})));
  CHECK(c.find("ridge")->number == 100.0 / 20);
  const auto& rows = c.find("rows")->items;
  REQUIRE(rows.size() == 2);
  CHECK(keys(rows[0]) ==
        std::vector<std::string>{"intensity", "bandwidth_ceiling", "ceiling", "bound"});
  CHECK(rows[0].find("ceiling")->number == 20 * 1);
  CHECK(rows[0].find("bound")->string == "memory-bound");
  CHECK(rows[1].find("ceiling")->number == 100);
  CHECK(rows[1].find("bound")->string == "compute-bound");
  // 20 GB/s · 1e308 flops per byte overflows: Infinity, which JSON writes null (web/core.js reads
  // it back as Infinity); the ceiling itself stays the peak.
  const Json h = parsed(report::ceilings_call(num(100), num(20), arr({num(1e308)})));
  CHECK(h.find("rows")->items.at(0).find("bandwidth_ceiling")->is_null());
  CHECK(h.find("rows")->items.at(0).find("ceiling")->number == 100);
  CHECK(report::ceilings_call(str("100"), num(20), arr({})).error() ==
        "peak must be a number, got the string \"100\"");
  CHECK(report::ceilings_call(num(100), num(20), arr({num(1), str("x")})).error() ==
        "intensities[1] must be a number, got the string \"x\"");
}

TEST_CASE("the traffic experiment and the figure keep the seed's shapes", "[report][requests]") {
  const Json t =
      parsed(report::traffic_experiment_call(num(100), num(20), arr({num(32.0 / 6)}), num(2)));
  REQUIRE(t.items.size() == 1);
  CHECK(keys(t.items[0]) == std::vector<std::string>{"original", "revised", "bound_changed"});
  CHECK(t.items[0].find("original")->find("bound")->string == "compute-bound");
  CHECK(t.items[0].find("revised")->find("bound")->string == "memory-bound");
  CHECK(t.items[0].find("bound_changed")->boolean);
  CHECK(report::traffic_experiment_call(num(100), num(20), arr({}), Arg()).error() ==
        "traffic factor must be a number, got undefined");
  const Json f = parsed(report::figure_call(num(100), num(20), arr({num(1), num(10)})));
  CHECK(keys(f) == std::vector<std::string>{"kind", "x", "xlabel", "ylabel", "series"});
  CHECK(f.find("x")->items.size() >= 2);
}

TEST_CASE("lesson params: each key by its own rule, a refusal naming the key as its input",
          "[report][requests]") {
  auto p = report::lesson_params(
      obj({{"m", num(48)}, {"dtype", str("")}, {"sizes", arr({num(8)})}, {"n", Arg()}}));
  REQUIRE(p);
  CHECK(p->m == 48.0);
  CHECK(!p->dtype);  // empty: follows the itemsize
  CHECK(!p->n);      // undefined: the seed's
  CHECK(p->sizes == std::vector<double>{8});
  CHECK(report::lesson_params(Arg()).ok());

  auto unknown = report::lesson_params(obj({{"q", num(1)}}));
  CHECK(unknown.error_info().input == "q");
  CHECK(unknown.error().rfind("unknown lesson input \"q\"", 0) == 0);
  auto factor = report::lesson_params(obj({{"traffic_factor", str("2")}}));
  CHECK(factor.error_info().input == "traffic_factor");
  CHECK(factor.error() == "traffic factor must be a number, got the string \"2\"");
  auto dtype = report::lesson_params(obj({{"dtype", num(4)}}));
  CHECK(dtype.error_info().input == "dtype");
  CHECK(dtype.error() == "dtype must be a string, got number");
  auto sizes = report::lesson_params(obj({{"sizes", arr({num(8), Arg::null()})}}));
  CHECK(sizes.error_info().input == "sizes");
  CHECK(sizes.error() == "sizes[1] must be a number, got object");
  auto list = report::lesson_params(arr({}));
  CHECK(list.error_info().input == "params");
  CHECK(list.error() == "params must be an object, got object");
}

TEST_CASE("lesson extras: measurements and answers, refused as the input they belong to",
          "[report][requests]") {
  const Arg point = obj({{"m", num(32)}, {"k", num(16)}, {"n", num(8)}, {"gflops", num(3)}});
  const Arg levels = obj({{"l1", num(40)}, {"memory", num(9)}});
  auto e = report::lesson_extras(obj(
      {{"measured",
        obj({{"gflops", num(50)},
             {"bandwidth_gbs", levels},
             {"point", point},
             {"other_cores",
              arr({obj({{"cores", num(4)}, {"gflops", num(180)}, {"bandwidth_gbs", levels}})})}})},
       {"answers", obj({{"work", str("27648")}, {"bound", Arg::null()}})}}));
  REQUIRE(e);
  REQUIRE(e->measured);
  CHECK(e->measured->bandwidth_gbs.size() == 2);
  CHECK(e->measured->bandwidth_gbs[1].first == "memory");
  CHECK(e->measured->point_gflops == 3);
  REQUIRE(e->measured->other_cores.size() == 1);
  CHECK(e->measured->other_cores[0].cores == 4);
  REQUIRE(e->answers.size() == 1);  // a null answer is not checked
  CHECK(e->answers[0].second == "27648");

  auto no_point = report::lesson_extras(
      obj({{"measured", obj({{"gflops", num(50)}, {"bandwidth_gbs", levels}})}}));
  CHECK(no_point.error_info().input == "measurements");
  CHECK(no_point.error() == "measured.point must be {m, k, n, gflops}");
  auto cores = report::lesson_extras(
      obj({{"measured", obj({{"gflops", num(50)},
                             {"bandwidth_gbs", levels},
                             {"point", point},
                             {"kernels", arr({obj({{"m", num(1)},
                                                   {"k", num(1)},
                                                   {"n", num(1)},
                                                   {"gflops", num(1)},
                                                   {"cores", num(0)}})})}})}}));
  CHECK(cores.error() == "measured.kernels[0].cores must be an integer from 1 to 256, got 0");
  auto level = report::lesson_extras(
      obj({{"measured", obj({{"gflops", num(50)}, {"bandwidth_gbs", obj({{"l2", str("9")}})}})}}));
  CHECK(level.error() == "measured.bandwidth_gbs.l2 must be a number, got the string \"9\"");
  auto answer = report::lesson_extras(obj({{"answers", obj({{"work", num(1)}})}}));
  CHECK(answer.error_info().input == "answers");
  CHECK(answer.error() == "answers.work must be a string, got number");
}

TEST_CASE("the lesson report call: the report's JSON, or every refused input in field order",
          "[report][requests]") {
  auto ok = report::lesson_report_call(Arg(), Arg());
  REQUIRE(ok.refused.empty());
  auto j = parse_json(ok.json);
  REQUIRE(j);
  CHECK(j->find("stablehlo")->find("dtype")->string == "f32");
  auto refused = report::lesson_report_call(obj({{"peak", num(-1)}, {"m", num(0)}}), Arg());
  REQUIRE(refused.refused.size() == 2);
  CHECK(refused.refused[0].input == "m");  // the page's field order, not the keys'
  CHECK(refused.refused[0].error == "m must be a positive integer, got 0");
  CHECK(refused.refused[1].input == "peak");
  auto typed = report::lesson_report_call(obj({{"m", str("x")}}), Arg());
  REQUIRE(typed.refused.size() == 1);
  CHECK(typed.refused[0].input == "m");
}

TEST_CASE("a roofline request: roofs, columns as arrays or Float64Arrays, totals and range",
          "[report][requests]") {
  Arg doubles;
  doubles.type = Arg::Type::doubles;
  doubles.doubles = {8192, 1e6};
  const Arg roof = obj({{"peak", num(100)}, {"bandwidth", num(20)}, {"interconnect", Arg::null()}});
  auto q = report::roofline_request(obj({{"roofs", arr({roof})},
                                         {"flops", doubles},
                                         {"bytes", arr({num(3584), num(1e5)})},
                                         {"totals", obj({{"flops", num(1008192)}})},
                                         {"range", arr({num(0.01), num(1e4)})},
                                         {"measured_seconds", num(2)}}));
  REQUIRE(q);
  CHECK(q->roofs.size() == 1);
  CHECK(q->interconnects == std::vector<double>{0});
  CHECK(q->flops == std::vector<double>{8192, 1e6});
  CHECK(q->bytes == std::vector<double>{3584, 1e5});
  CHECK(q->total_flops == 1008192);
  CHECK(q->total_bytes == 0);
  CHECK(q->xmax == 1e4);
  CHECK(q->measured_seconds == 2.0);
  auto r = report::program_roofline(q.value());
  REQUIRE(r);
  const Json j = parsed(Result<std::string>::success(report::roofline_json(r.value())));
  CHECK(keys(j) == std::vector<std::string>{"roofs", "program", "measured", "bound_names"});
  REQUIRE(j.find("bound_names")->items.size() == 3);
  CHECK(j.find("bound_names")->items[0].string == "memory-bound");
  CHECK(j.find("roofs")->items.at(0).find("ridge")->number == 5);

  CHECK(report::roofline_request(Arg::null()).error() == "request must be an object, got null");
  CHECK(report::roofline_request(obj({{"roofs", arr({})}})).error() ==
        "roofs must be a non-empty array of roofs");
  CHECK(report::roofline_request(obj({{"roofs", arr({obj({{"peak", str("1")}})})}})).error() ==
        "roof.peak must be a number, got the string \"1\"");
  CHECK(report::roofline_request(
            obj({{"roofs", arr({roof})}, {"flops", num(1)}, {"range", arr({num(1), num(2)})}}))
            .error() == "flops must be an array of numbers");
  CHECK(report::roofline_request(obj({{"roofs", arr({roof})}, {"range", arr({num(1)})}})).error() ==
        "range must be [xmin, xmax]");
}

TEST_CASE("kernel arguments: a variant by name, a shape, Float32Arrays of the right length",
          "[report][requests][kernel]") {
  CHECK(report::variant_of(Arg()).value() == &kernels::best_matmul(true));
  CHECK(report::variant_of(num(1)).error() == "variant must be a string, got number");
  auto c = report::run_kernel_call(Arg(), num(2), num(3), num(2), floats(6), floats(6));
  REQUIRE(c);
  CHECK(c.value().size() == 4);
  CHECK_THAT(c.value()[0], Catch::Matchers::WithinRel(std::tanh(3 * 0.25f), 1e-5f));
  CHECK(report::run_kernel_call(Arg(), num(2), num(3), num(2), floats(6), floats(5)).error() ==
        "b must hold 6 floats (k·n), got 5");
  CHECK(report::run_kernel_call(Arg(), num(2), num(3), num(2), arr({}), floats(6)).error() ==
        "a must be a Float32Array, got an array");
  auto u = report::uniform_floats_call(num(5), num(7));
  REQUIRE(u);
  CHECK(u.value().size() == 5);
  for (std::size_t i = 0; i < 5; ++i) CHECK((u.value()[i] >= -1 && u.value()[i] < 1));
  CHECK(report::uniform_floats_call(num(0), num(7)).error() ==
        "count must be an integer from 1 to 67108864, got 0");
  CHECK(report::uniform_floats_call(num(1), num(-1)).error() ==
        "seed must be an integer from 0 to 2^32 - 1, got -1");
}

TEST_CASE("work for the pool: made from its spec, each kind's fields checked by name",
          "[report][requests][measure]") {
  auto chains = report::make_work(obj({{"kind", str("chains")}}));
  REQUIRE(chains);
  const Json j = parsed(Result<std::string>::success(report::work_json(*chains.value(), 3)));
  CHECK(keys(j) == std::vector<std::string>{"kind", "flops_per_unit", "bytes_per_unit",
                                            "working_set_bytes", "handle"});
  CHECK(j.find("kind")->string == "chains");
  CHECK(j.find("handle")->number == 3);
  CHECK(report::make_work(Arg::null()).error() == "work must be an object, got null");
  CHECK(report::make_work(obj({{"kind", str("x")}})).error() ==
        "work.kind must be one of chains, triad, kernel, got \"x\"");
  CHECK(report::make_work(obj({{"kind", str("triad")}})).error() ==
        "work.level must be a string, got undefined");
  CHECK(report::make_work(obj({{"kind", str("triad")}, {"level", str("l1")}, {"workers", num(0)}}))
            .error() == "work.workers must be an integer from 1 to 256, got 0");
  auto kernel = report::make_work(obj({{"kind", str("kernel")},
                                       {"rows", num(2)},
                                       {"k", num(3)},
                                       {"n", num(2)},
                                       {"a", floats(6)},
                                       {"packed_b", floats(1)}}));
  REQUIRE(!kernel);
  CHECK(kernel.error().rfind("work.packed_b must hold ", 0) == 0);
  CHECK(report::work_units(num(0)).error() == "units must be an integer from 1 to 2^30, got 0");
  CHECK(report::work_units(num(3)).value() == 3);
}

TEST_CASE("a run's options: defaults, each option's rule, the input named", "[report][requests]") {
  auto d = report::run_options(Arg());
  REQUIRE(d);
  CHECK(d->fuse == report::default_run_options().fuse);
  auto set = report::run_options(obj({{"fuse", Arg::of(false)}, {"inputs", str("arange")}}));
  REQUIRE(set);
  CHECK(!set->fuse);
  CHECK(set->inputs == interp::Inputs::Arange);
  auto flag = report::run_options(obj({{"time_ops", num(1)}}));
  CHECK(flag.error_info().input == "time_ops");
  CHECK(flag.error() == "time_ops must be true or false, got number");
  CHECK(d->fusion.dot_epilogues);
  auto cpu = report::run_options(obj({{"dot_epilogues", Arg::of(false)}}));
  REQUIRE(cpu);
  CHECK_FALSE(cpu->fusion.dot_epilogues);
  CHECK(cpu->fuse);
  auto rule = report::run_options(obj({{"dot_epilogues", str("no")}}));
  CHECK(rule.error_info().input == "dot_epilogues");
  CHECK(rule.error() == "dot_epilogues must be true or false, got string");
  auto seed = report::run_options(obj({{"seed", str("1")}}));
  CHECK(seed.error_info().input == "seed");
  CHECK(seed.error() == "seed must be a number, got the string \"1\"");
  auto progress = report::run_options(obj({{"on_progress", num(1)}}));
  CHECK(progress.error() == "on_progress must be a function, got number");
  auto both = report::run_options(obj({{"inputs", str("seeded")}, {"args", arr({})}}));
  CHECK(both.error_info().input == "args");
  CHECK(both.error() == "give inputs or args, not both");
  auto args = report::run_options(obj({{"args", arr({obj({{"name", str("x")}})})}}));
  CHECK(args.error() == "args[0] must be {name: string, bytes: Uint8Array}, got Object");
  CHECK(report::run_options(str("x")).error() == "options must be an object, got string");
}

TEST_CASE("exercises: the set's arguments, a question's answer, a question built elsewhere",
          "[report][requests][exercises]") {
  CHECK(report::exercises_call(num(1), num(1), Arg()).error() ==
        "seed must be a string, got number");
  CHECK(report::exercises_call(str("s"), num(101), Arg()).error() ==
        "count must be an integer from 1 to 100, got 101");
  auto set = report::exercise_set(str("s"), num(2), Arg());
  REQUIRE(set);
  const auto& q = set.value()[1].questions.at(0);
  const Json right = parsed(report::check_answer_call(str("s"), num(2), Arg(), num(1),
                                                      str(q.id.c_str()), str(q.exact.c_str())));
  CHECK(right.find("correct")->boolean);
  CHECK(report::check_answer_call(str("s"), num(2), Arg(), num(2), str("x"), str("1")).error() ==
        "index must be an integer from 0 to 1, got 2");
  CHECK(report::check_answer_call(str("s"), num(2), Arg(), num(0), str("nope"), str("1")).error() ==
        "question must be one of the exercise's questions, got \"nope\"");

  const Arg question = obj(
      {{"kind", str("number")},
       {"unit", str("flops")},
       {"value", num(27648)},
       {"exact", str("27648")},
       {"mistakes", arr({obj({{"value", num(13824)}, {"feedback", str("count the adds too")}})})}});
  CHECK(parsed(report::check_question_call(question, str("27648"))).find("correct")->boolean);
  const Json wrong = parsed(report::check_question_call(question, str("13824")));
  CHECK(!wrong.find("correct")->boolean);
  CHECK(wrong.find("feedback")->string.find("count the adds too") != std::string::npos);
  CHECK(report::check_question_call(obj({{"kind", str("essay")}}), str("")).error() ==
        "question.kind must be one of number, choice, set, got \"essay\"");
  CHECK(report::check_question_call(Arg::null(), str("")).error() ==
        "question must be an object, got null");
  const Arg sizes =
      obj({{"kind", str("set")}, {"set", arr({num(64), num(32)})}, {"exact", str("32, 64")}});
  CHECK(parsed(report::check_question_call(sizes, str("64, 32"))).find("correct")->boolean);
}

TEST_CASE("the gradebook's and Moodle's arguments are checked by name", "[report][requests]") {
  CHECK(report::gradebook_call(num(1), Arg()).error() ==
        "files must be an array of {name, text}, got number");
  CHECK(report::gradebook_call(arr({obj({{"name", num(1)}})}), Arg()).error() ==
        "files[0].name must be a string, got number");
  CHECK(report::gradebook_call(arr({}), obj({{"seed", str("s")}, {"count", num(0)}})).error() ==
        "set: count must be an integer from 1 to 100, got 0");
  auto table =
      report::gradebook_call(arr({obj({{"name", str("a.json")}, {"text", str("{}")}})}), Arg());
  REQUIRE(table);
  CHECK(parse_json(table.value()).ok());
  auto xml = report::moodle_call(str("s"), num(1), Arg());
  REQUIRE(xml);
  CHECK(xml.value().find("<quiz>") != std::string::npos);
}

TEST_CASE("small answers and argument rules: notebooks, fusion, tables, samplers",
          "[report][requests]") {
  python::NotebookResult r;
  r.stdout_text = "1\n";
  r.line = 3;
  CHECK(keys(parsed(Result<std::string>::success(report::notebook_json(r)))) ==
        std::vector<std::string>{"stdout", "error", "errorType", "line"});
  const Json cell = parsed(Result<std::string>::success(report::notebook_json(r, 2)));
  CHECK(keys(cell) == std::vector<std::string>{"stdout", "display", "error", "errorType",
                                               "exception", "line", "column", "file", "sourceLine",
                                               "cellsRun"});
  CHECK(cell.find("cellsRun")->number == 2);
  const Json cells = parsed(
      Result<std::string>::success(report::cells_json(python::split_cells("a = 1\n\nb = 2\n"))));
  REQUIRE(cells.items.size() == 2);
  CHECK(cells.items[1].find("firstLine")->number == 3);
  CHECK(report::notebook_options(obj({{"filename", num(1)}}), true).error() ==
        "filename must be a string, got number");
  CHECK(report::notebook_options(obj({{"filename", num(1)}}), false).ok());  // not read there
  CHECK(report::cell_number(num(0)).error() == "cell must be an integer from 1 to 1000000, got 0");
  auto fuse = report::fuse_options(obj({{"dot_epilogues", num(1)}}));
  CHECK(fuse.error_info().input == "dot_epilogues");
  CHECK(fuse.error() == "dot_epilogues must be true or false, got number");
  CHECK(!report::fuse_options(obj({{"dot_epilogues", Arg::of(false)}})).value().dot_epilogues);
  CHECK(report::lower_entry(obj({{"entry", num(1)}})).error() ==
        "entry must be a string, got number");
  CHECK(report::lower_entry(Arg::null()).value().empty());
  CHECK(report::text_buffer_size(num(1.5)).error() ==
        "size must be a whole number of bytes, got 1.5");
  CHECK(report::text_buffer_size(num(1e12)).error().rfind("size must be at most ", 0) == 0);
  CHECK(report::chunk_bytes(num(0)).error() == "bytes must be from 1 to 67108864, got 0");
  CHECK(report::sampler_record_call(num(1), num(1)).error() ==
        "state must be the JSON text samplerStart or samplerRecord gave");
  auto start = report::sampler_start_call(num(1e-6), num(1e-3), num(3));
  REQUIRE(start);
  CHECK(report::sampler_record_call(str(start.value().c_str()), num(1e-4)).ok());
  CHECK(report::measure_bandwidth_call(num(1), num(0.01)).error() ==
        "level must be a string, got number");
  CHECK(report::traffic_request(num(2), str("x")).error() ==
        "options must be an object {reread?, samples?}, got string");
  auto q = report::traffic_request(num(2), obj({{"reread", num(1)}}));
  REQUIRE(q);
  CHECK(q->reread == std::string());
  CHECK(q->reread_shown == "number");
}
