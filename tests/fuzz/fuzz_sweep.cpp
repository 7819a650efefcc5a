// libFuzzer harness for sweep files (see README.md in this directory).
//
// The input bytes are a sweep file (JSON). readSweep reads it as `articulate-cli sweep` does,
// against its base model (a relative "model" names a file of the project's models/ folder).
// Only FormatError may leave the reader. A sweep that reads must:
//   - have at least one run, with values of the JSON types its parameters replace, and
//     distinct column names;
//   - read back from its stored form (RESULTS/sweep.json) with the same runs, values and
//     columns, as --collect and a resumed run rely on;
//   - run its first and last run (shortened to 10 ms of simulated time, and stopped after 2 s
//     of wall time) to a row: ok, diverged, invalid or error, with one entry per metric, each
//     finite or empty. A run never throws.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "articulate/batch/sweep.h"
#include "articulate/formats/json.h"
#include "fuzz_common.h"

namespace {
using fuzz::finding;
using nlohmann::json;
namespace sweep = art::sweep;

const std::string kFile = std::string(ARTICULATE_MODELS_DIR) + "/fuzz-input.sweep.json";

void checkRun(const sweep::SweepSpec& spec, long run) {
  std::atomic<bool> stop{false};
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
  std::thread watchdog([&] {
    std::unique_lock<std::mutex> lock(m);
    if (!cv.wait_for(lock, std::chrono::seconds(2), [&] { return done; })) stop = true;
  });
  std::optional<sweep::RunResult> r;
  std::string error;
  try {
    r = sweep::runOne(spec, run, &stop, "");
  } catch (const std::exception& e) {
    error = e.what();
  }
  {
    std::lock_guard<std::mutex> lock(m);
    done = true;
  }
  cv.notify_one();
  watchdog.join();
  if (!error.empty()) finding("a sweep run threw", error);
  if (!r) return;  // stopped by the watchdog
  if (r->status != "ok" && r->status != "diverged" && r->status != "invalid" && r->status != "error")
    finding("a run has an unknown status", r->status);
  if (r->status != "ok" && r->reason.empty()) finding("a run that is not ok gives no reason", r->status);
  if (r->metrics.size() != spec.metrics.size()) finding("a run has another number of metrics", r->status);
  for (const auto& x : r->metrics)
    if (x && !std::isfinite(*x) && r->status == "ok") finding("an ok run has a metric that is not finite", r->reason);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
  json doc;
  try {
    doc = art::parseJsonText(std::string(reinterpret_cast<const char*>(bytes), size), kFile);
  } catch (const art::FormatError&) {
    return 0;
  }
  sweep::SweepSpec spec;
  try {
    spec = sweep::readSweep(doc, kFile);
  } catch (const art::FormatError&) {
    return 0;
  } catch (const std::exception& e) {
    finding("the sweep reader threw something other than FormatError", e.what());
  }
  const long runs = spec.runs();
  if (runs < 1) finding("a sweep that reads has no runs", doc.dump());
  const std::vector<std::string> columns = sweep::columns(spec);
  if (std::set<std::string>(columns.begin(), columns.end()).size() != columns.size())
    finding("a sweep's table has two columns of one name", doc.dump());
  sweep::SweepSpec stored;
  try {
    stored = sweep::readSweep(sweep::storedDocument(spec), kFile);
  } catch (const std::exception& e) {
    finding("a sweep's stored form does not read back", std::string(e.what()) + "\n" + sweep::storedDocument(spec).dump());
  }
  if (stored.runs() != runs || sweep::columns(stored) != columns)
    finding("a sweep's stored form has other runs or columns", sweep::storedDocument(spec).dump());
  for (long run : {0L, runs - 1})
    for (std::size_t p = 0; p < spec.parameters.size(); ++p)
      if (spec.value(run, p) != stored.value(run, p)) finding("a sweep's stored form has other values", doc.dump());
  spec.duration = std::min(spec.duration, 0.01);
  checkRun(spec, 0);
  if (runs > 1) checkRun(spec, runs - 1);
  return 0;
}
