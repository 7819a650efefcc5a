#include "sweep_command.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <thread>
#include <vector>

#include "articulate/batch/sweep.h"
#include "articulate/formats/files.h"

namespace {

namespace fs = std::filesystem;
using namespace art;

std::atomic<bool> g_stop{false};

extern "C" void onInterrupt(int) {
  g_stop.store(true);
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl+C ends it at once
}

// Runs a program with an argument list (no shell: a file name is one argument, whatever it
// holds), its output and errors into `output`. Returns its exit status; -1 when it cannot be
// started (not installed).
int runProgram(const std::vector<std::string>& argv, std::string& output) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("cannot create a pipe to run " + argv.front());
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int started = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (started != 0) {
    close(fds[0]);
    return -1;
  }
  char buffer[256];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) != 0;) {
    if (n > 0) output.append(buffer, static_cast<std::size_t>(n));
    else if (errno != EINTR) break;
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string duration(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  std::ostringstream out;
  if (s >= 3600) out << s / 3600 << " h " << (s % 3600) / 60 << " min";
  else if (s >= 60) out << s / 60 << " min " << s % 60 << " s";
  else out << s << " s";
  return out.str();
}

// "[#######.............] 420/1000 runs  35.2 runs/s  16 s left": redrawn in place on a
// terminal (at most 10 times a second), a line per 10% otherwise (a log file, a Slurm output)
class ProgressBar {
 public:
  ProgressBar(bool quiet) : m_quiet(quiet), m_tty(isatty(STDERR_FILENO) != 0) {}
  void update(long done, long total) {
    if (m_quiet) return;
    const auto now = std::chrono::steady_clock::now();
    if (m_first < 0) m_first = done, m_start = now;
    const double elapsed = std::chrono::duration<double>(now - m_start).count();
    const bool last = done == total;
    if (m_tty) {
      if (!last && now - m_drawn < std::chrono::milliseconds(100)) return;
    } else {
      const long decile = total ? done * 10 / total : 10;
      if (!last && decile == m_decile) return;
      m_decile = decile;
    }
    m_drawn = now;
    const double rate = elapsed > 0 ? static_cast<double>(done - m_first) / elapsed : 0;
    const int width = 30, filled = total ? static_cast<int>(width * done / total) : width;
    std::ostringstream line;
    line << "[" << std::string(static_cast<std::size_t>(filled), '#')
         << std::string(static_cast<std::size_t>(width - filled), '.') << "] " << done << "/" << total << " runs";
    if (rate > 0) {
      line.precision(3);
      line << "  " << rate << " runs/s";
      if (!last) line << "  " << duration(static_cast<double>(total - done) / rate) << " left";
    }
    std::cerr << (m_tty ? "\r" : "") << line.str() << (m_tty ? "\033[K" : "\n") << (m_tty && last ? "\n" : "") << std::flush;
  }
  void finish() {
    if (m_tty && !m_quiet && m_drawn.time_since_epoch().count()) std::cerr << "\n";
  }

 private:
  bool m_quiet, m_tty;
  long m_first = -1, m_decile = -1;
  std::chrono::steady_clock::time_point m_start, m_drawn;
};

sweep::Slice parseTask(const std::string& text) {
  sweep::Slice s;
  char slash = 0;
  std::istringstream in(text);
  if (!(in >> s.task >> slash >> s.tasks) || slash != '/' || !in.eof() || s.tasks < 1 || s.task < 0 ||
      s.task >= s.tasks)
    throw std::invalid_argument("--task: expected K/N with 0 <= K < N, got '" + text + "'");
  return s;
}

std::string selfPath() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("articulate-cli") : p.string();
}

void printCollected(const sweep::Collected& c, const std::string& dir) {
  std::cout << c.present << " of " << c.runs << " runs (" << c.ok << " ok, " << c.diverged << " diverged, " << c.invalid
            << " invalid" << (c.error ? ", " + std::to_string(c.error) + " error" : std::string()) << "); wrote "
            << (fs::path(dir) / "results.csv").string() << " and manifest.json\n";
}

int submitSlurm(const SweepArgs& a, const sweep::SweepSpec& spec) {
  // #SBATCH lines cannot quote: a space would split the output path, a % is a Slurm pattern
  const std::string results = fs::absolute(a.output).lexically_normal().string();
  if (results.find_first_of(" \t\n%") != std::string::npos)
    throw std::invalid_argument("--slurm: the results folder's path may not hold spaces or '%' (Slurm's --output "
                                "cannot quote them): " + results);
  const long runs = spec.runs();
  const int tasks = static_cast<int>(a.tasks > 0 ? std::min<long>(a.tasks, runs) : std::min<long>(runs, 64));
  const std::string script = sweep::slurmScript(selfPath(), a.spec, a.output, tasks, a.cpus, a.partition);
  if (a.dryRun) {
    std::cout << script;
    return 0;
  }
  sweep::prepareResults(spec, a.output);
  std::error_code ec;
  fs::create_directories(fs::path(a.output) / "slurm", ec);
  const std::string file = (fs::path(a.output) / "sweep.sbatch").string();
  writeFileAtomically(file, script);
  std::string reply;
  const int status = runProgram({"sbatch", "--parsable", file}, reply);
  while (!reply.empty() && (reply.back() == '\n' || reply.back() == '\r')) reply.pop_back();
  if (status == -1) throw std::runtime_error("cannot run sbatch (is Slurm installed here?)");
  if (status != 0)
    throw std::runtime_error("sbatch " + file + " failed" + (reply.empty() ? std::string(" (is Slurm installed here?)") : ": " + reply));
  std::cout << "submitted job " << reply << ": " << runs << " runs in " << tasks << " array tasks of " << a.cpus
            << " core(s); when it ends: articulate-cli sweep --collect " << a.output << "\n";
  return 0;
}

}  // namespace

CLI::App* addSweepCommand(CLI::App& app, SweepArgs& a) {
  auto* s = app.add_subcommand("sweep", "run a parameter sweep on every core or on Slurm, or collect its results");
  s->add_option("SPEC", a.spec, "sweep file (docs/sweeps.md)")->check(CLI::ExistingFile);
  s->add_option("-o,--output", a.output, "results folder (resumed if it holds this sweep's runs)");
  s->add_option("-j,--jobs", a.threads, "threads (default: every core)")->check(CLI::Range(1, 4096));
  s->add_option("--task", a.task, "run slice K/N only: the runs whose index is K modulo N (Slurm array tasks)");
  s->add_option("--collect", a.collect, "merge the finished runs of a results folder into results.csv");
  s->add_flag("--slurm", a.slurm, "write a Slurm job-array script into the results folder and submit it with sbatch");
  s->add_option("--partition", a.partition, "--slurm: the partition");
  s->add_option("--tasks", a.tasks, "--slurm: array tasks (default: the runs, at most 64)")->check(CLI::Range(1, 100000));
  s->add_option("--cpus", a.cpus, "--slurm: cores per array task")->check(CLI::Range(1, 4096))->capture_default_str();
  s->add_flag("--dry-run", a.dryRun, "--slurm: print the script, submit nothing");
  s->add_flag("-q,--quiet", a.quiet, "no progress bar");
  return s;
}

int runSweepCommand(const SweepArgs& a) {
  if (!a.collect.empty()) {
    if (!a.spec.empty() || !a.output.empty())
      throw std::invalid_argument("--collect RESULTS takes no SPEC or --output");
    const sweep::Collected c = sweep::collect(a.collect);
    printCollected(c, a.collect);
    if (c.present < c.runs) {
      std::cerr << "error: " << c.runs - c.present << " runs are not finished yet (rerun their tasks, or the sweep)\n";
      return 1;
    }
    return 0;
  }
  if (a.spec.empty() || a.output.empty()) throw std::invalid_argument("sweep: needs SPEC and -o RESULTS (or --collect RESULTS)");
  const sweep::SweepSpec spec = sweep::readSweep(a.spec);
  if (a.slurm) return submitSlurm(a, spec);
  const sweep::Slice slice = a.task.empty() ? sweep::Slice{} : parseTask(a.task);
  const int threads = a.threads > 0 ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);  // Slurm's scancel and time limit
  ProgressBar bar(a.quiet);
  const auto start = std::chrono::steady_clock::now();
  const sweep::RunSummary r = sweep::run(spec, a.output, slice, threads, &g_stop,
                                         [&](long done, long total) { bar.update(done, total); });
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.interrupted) {
    bar.finish();
    std::cerr << "interrupted: " << r.skipped + r.finished << " of " << r.total
              << " runs are finished and kept; run the same command again to do the rest\n";
    return 130;
  }
  std::ostringstream rate;
  rate.precision(4);
  if (r.finished > 0 && wall > 0)
    rate << ": " << static_cast<double>(r.finished) / wall << " runs/s, "
         << static_cast<double>(r.finished) * spec.duration / wall / threads << " simulated s per wall s per thread";
  if (!a.quiet)
    std::cerr << "ran " << r.finished << " runs (" << r.skipped << " already done) in " << duration(wall) << " on "
              << threads << " thread(s)" << rate.str() << "\n";
  if (slice.tasks > 1) {
    std::cout << "task " << slice.task << "/" << slice.tasks << ": " << r.total << " runs finished\n";
    return 0;
  }
  printCollected(sweep::collect(a.output), a.output);
  return 0;
}
