#pragma once
// Parameter sweeps (docs/sweeps.md): a sweep file names a base model, the parameters to vary
// and how to combine them, the simulation settings and the metrics to keep per run. Every run
// is one simulation of the base model with its parameter values substituted. Runs are
// independent, numbered 0..runs()-1 in a fixed order, and their results depend on nothing but
// the sweep file and the model: not on the number of threads, the slicing into tasks, or
// interruptions. Results are kept in a results directory:
//
//   RESULTS/sweep.json       the sweep file as it was run (a rerun must name the same sweep)
//   RESULTS/manifest.json    what the table holds: columns, run counts, status counts
//   RESULTS/parts/*.jsonl    one line per finished run, appended as runs finish (per task)
//   RESULTS/results.csv      the table: one row per run, in run order
//   RESULTS/recordings/      optional: run-NNNNNN.arec, each run's samples in binary
//
// Units: SI throughout (s, and the model's own units for parameters and metrics).

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "articulate/batch/system_factory.h"

namespace art::sweep {

inline constexpr const char* kSweepFormatName = "articulate-sweep";
inline constexpr const char* kResultsFormatName = "articulate-sweep-results";
inline constexpr const char* kRecordingMagic = "ARTREC1";  // + '\0': the .arec header's 8 bytes

/// What a parameter changes.
enum class Target {
  Pointer,   // a value of the base model's JSON document, by JSON Pointer (RFC 6901)
  InitialQ,  // one entry of the initial positions q0 (index)
  InitialQd  // one entry of the initial velocities (index)
};

/// One swept parameter with all its values, in order.
struct Parameter {
  std::string name;  // the results table's column
  Target target = Target::Pointer;
  std::string pointer;  // Target::Pointer
  int index = -1;       // Target::InitialQ / InitialQd
  std::vector<nlohmann::json> values;
};

/// A per-run summary number. A metric that does not exist for a run (no contact, fewer than two
/// crossings, an invalid model) is empty: null in JSON, an empty cell in CSV.
struct Metric {
  enum class Kind {
    Final,        // the series' value at the last sample
    Max, Min,     // over the samples
    Mean,         // over the samples
    Period,       // mean time between upward crossings of the series' mid-range (max + min) / 2
    EnergyDrift,  // max |E(t) - E(0)| over the samples (J), E = kinetic + potential
    FirstContact  // time (s) of the first sample where a contact point carries a normal force
  };
  Kind kind = Kind::Final;
  std::string series;  // q0.., qd0.. (or a system's own column names), kinetic, potential, total
  /// Whether it reads a series (every kind but energy_drift and first_contact).
  bool hasSeries() const;
  /// The results table's column: "final(q0)", "max(total)", "energy_drift", "first_contact".
  std::string column() const;
};

/// The base model as loaded once for a sweep (sweep.cpp), shared by all its runs.
struct BaseModel;

/// A sweep file, read and checked against its base model.
struct SweepSpec {
  std::string file;     // the sweep file, as given
  std::string model;    // the base model, resolved against the sweep file's folder
  std::string urdfBase;  // "base": a URDF base model's base ("auto", "fixed", "floating"; "" = auto)
  nlohmann::json document;  // the sweep file's JSON, as read
  std::vector<Parameter> parameters;
  bool grid = true;  // grid: every combination (the first parameter varies slowest); zip: the k-th values together
  std::uint64_t seed = 0;
  double duration = 1.0;  // simulated time per run (s)
  SimulationOverrides simulation;  // integrator, dt, rtol, atol (empty: the model's)
  int every = 1;          // metrics and recordings sample every `every` steps of dt
  std::vector<Metric> metrics;
  bool recordings = false;  // keep each run's samples (recordings/run-NNNNNN.arec)
  bool vectorise = true;    // step kLanes runs together where the model allows (vectorised())
  /// The base model readSweep loaded: every run of this spec uses it, even if the file changes
  /// meanwhile. Empty for a spec read from a results folder, whose runs load the file and check
  /// that it is the one the sweep ran (its fingerprint in RESULTS/sweep.json).
  std::shared_ptr<const BaseModel> base;

  /// The number of runs: the product of the parameters' value counts (grid) or their common
  /// count (zip); 1 without parameters.
  long runs() const;
  /// The value of parameter p in run `run` (0 <= run < runs()).
  const nlohmann::json& value(long run, std::size_t p) const;
};

/// Reads a sweep file and checks it against its base model before any run: the format, every
/// parameter (a pointer that names nothing in the model, a value of another JSON type than the
/// one it replaces, an empty range or list, an index outside q0, zip lists of different
/// lengths), the settings, the metrics' series and a base model that fails to load. Throws
/// FormatError whose message starts with the sweep file and names the parameter
/// ("parameters[1] 'theta2': ...").
SweepSpec readSweep(const std::string& path);
/// The same for a sweep document already read; `path` names it in messages and a relative
/// model is resolved against its folder.
SweepSpec readSweep(const nlohmann::json& document, const std::string& path);

/// The sweep as RESULTS/sweep.json stores it: the file's document with what it left to
/// defaults spelled out (the model's absolute path, the metrics) and the model file's
/// fingerprint (64-bit FNV-1a of its bytes, "model_fingerprint"). readSweep of it gives the
/// same runs, values and columns; a rerun into the folder must store the same document, so a
/// model file changed since the sweep started is refused by name.
nlohmann::json storedDocument(const SweepSpec& spec);

/// The results table's columns: run, the parameters, status, end_time, steps, the metrics,
/// reason.
std::vector<std::string> columns(const SweepSpec& spec);

/// One run's outcome. status: "ok", "diverged" (the simulation stopped at end_time; reason
/// is the divergence message) or "invalid" (the parameter values make a model that does not
/// load or build; reason says why). Metrics hold what the samples gave, in spec.metrics order.
struct RunResult {
  long run = 0;
  std::string status = "ok";
  std::string reason;
  double endTime = 0;  // the simulated time reached (s)
  long steps = 0;      // integrator steps taken
  std::vector<std::optional<double>> metrics;
};

/// Whether the spec's runs are stepped kLanes at a time, vectorised across the runs
/// (formulations/tree_batch.h): spec.vectorise, no pointer parameters (every run has the base
/// model), and a base tree that BatchSimulation takes with the sweep's integrator
/// (BatchSimulation::unsupported; `why`, when given, receives its reason, or the other
/// condition that failed). A spec's runs all take the same path, so that a run's numbers do
/// not depend on which runs share its batch, on -j or on slicing. The lanes' numbers equal
/// the one-run path's to rounding, not bit for bit. Throws as buildSystem for a base model
/// that does not build.
bool vectorised(const SweepSpec& spec, std::string* why = nullptr);

/// Runs one variant. When `stop` becomes true the run is abandoned and nullopt returned.
/// When spec.recordings, the samples are written (atomically) to recordingPath.
std::optional<RunResult> runOne(const SweepSpec& spec, long run, const std::atomic<bool>* stop,
                                const std::string& recordingPath);

/// Runs up to kLanes runs of a vectorised() spec together (runs[k] writes its recording to
/// recordingPaths[k] when spec.recordings; the paths may be empty). Each result is what
/// runOne gives for that run. Empty when `stop` became true. Throws std::invalid_argument
/// for more than kLanes runs or a spec that is not vectorised().
std::vector<RunResult> runLanes(const SweepSpec& spec, const std::vector<long>& runs, const std::atomic<bool>* stop,
                                const std::vector<std::string>& recordingPaths);

/// Which runs a process does: all of them, or task k of n (runs with index % n == k).
struct Slice {
  int task = 0, tasks = 1;
};

/// Progress of run(): runs finished so far in this slice (skipped ones included) and the
/// slice's total. Called from the worker threads, serialised.
using Progress = std::function<void(long done, long total)>;

/// What run() did.
struct RunSummary {
  long total = 0;      // runs in the slice
  long skipped = 0;    // already finished in the results directory (resumed)
  long finished = 0;   // run now
  bool interrupted = false;
};

/// Prepares `resultsDir` for the sweep: refuses a folder that holds another sweep (or this
/// sweep of a model file changed since), changing nothing in it; else creates it with its
/// parts/ (and recordings/) folders and sweep.json. The manifest is written by collect().
/// Throws std::runtime_error naming the folder.
void prepareResults(const SweepSpec& spec, const std::string& resultsDir);

/// Runs the slice's unfinished runs on `threads` threads (>= 1), appending each finished run's
/// line to RESULTS/parts/ as it finishes, and stops early, between samples, once `stop` is
/// true (the runs in progress are dropped, to be run again on resume). Calls prepareResults.
RunSummary run(const SweepSpec& spec, const std::string& resultsDir, Slice slice, int threads,
               const std::atomic<bool>* stop, const Progress& progress = {});

/// What collect() found.
struct Collected {
  long runs = 0, present = 0, ok = 0, diverged = 0, invalid = 0, error = 0;
};

/// Merges every part of `resultsDir` into results.csv (run order; a run found twice is kept
/// once) and rewrites manifest.json with the counts. Both are the same bytes however the runs
/// were spread over threads, tasks and interruptions. A torn last line (a process killed while
/// writing it) is ignored. Throws std::runtime_error for a folder without a sweep.
Collected collect(const std::string& resultsDir);

/// A results folder as the app shows it: the sweep as stored, and the table (results.csv,
/// written from the parts first if it is missing), cells as text.
struct Results {
  std::string dir;
  SweepSpec spec;  // from RESULTS/sweep.json
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // one per finished run, in run order
};
/// Reads a results folder. Throws std::runtime_error naming the folder or file and the problem.
Results readResults(const std::string& resultsDir);

/// The base model with run `run`'s pointer parameters put in (initial-state parameters are
/// not part of a model). Throws FormatError listing the problems when that variant is not a
/// valid model (its row is "invalid").
LoadedDocument variantDocument(const SweepSpec& spec, long run);

/// A run's recording (.arec): little-endian; the 8 bytes "ARTREC1\0", then uint32 nq, uint32
/// nv, uint64 samples, then per sample float64 t, q (nq), v (nv), kinetic, potential.
struct RunRecording {
  int nq = 0, nv = 0;
  std::vector<double> t, kinetic, potential;
  Eigen::MatrixXd q, v;  // one column per sample
};
/// Reads a .arec file. Throws std::runtime_error naming the file and what is wrong with it: a
/// header whose sizes do not match the file's length, a sample time that is not finite or is
/// before the previous one, a number that is not finite.
RunRecording readRecording(const std::string& path);
/// Run `run`'s samples: its kept recording, or (a sweep without recordings) the run simulated
/// again, which gives the same samples (runs are deterministic). Throws std::runtime_error when
/// the run is not a valid model or its recording cannot be read.
RunRecording runRecording(const Results& results, long run);

/// `text` as one word for the POSIX shell, in single quotes ('\'' for a quote).
std::string shellQuote(const std::string& text);

/// The sbatch job-array script that runs the sweep in `tasks` array tasks of `cpus` cores each
/// (each `articulate-cli sweep SPEC -o RESULTS --task K/N -j C`), with absolute paths;
/// `partition` may be empty. The results directory must be on a filesystem the nodes share.
/// Every path it writes is shell-quoted, in its comments too, so that no name runs as a
/// command. Throws std::invalid_argument for a path holding a control character (a newline
/// would end a line of the script) and for a partition that is not a plain name (letters,
/// digits, '_', '-', '.', and ',' between names).
std::string slurmScript(const std::string& cli, const std::string& specPath,
                        const std::string& resultsDir, int tasks, int cpus,
                        const std::string& partition);

}  // namespace art::sweep
