// libFuzzer harness for the Slurm job script of `articulate-cli sweep --slurm` (see README.md
// in this directory).
//
// The input is the sweep file's path, the results folder's path and the partition, separated
// by NUL bytes, then two bytes for the task and core counts. slurmScript may refuse them only
// with std::invalid_argument. A script it writes is run by bash as an array task would run it
// (SLURM_ARRAY_TASK_ID=0), in an empty folder, with articulate-cli replaced by a recorder (at
// a path full of shell syntax itself) that writes down its arguments. The recorder must get
// exactly the arguments of the sweep command (the absolute paths, byte for byte), and the
// folder must stay empty: a name that ran as a command, or split into words, is a finding.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "articulate/batch/sweep.h"
#include "fuzz_common.h"

extern char** environ;

namespace {
using fuzz::finding;
namespace fs = std::filesystem;

struct Place {
  fs::path root, work, recorder, args, script;
};

const Place& place() {
  static const Place p = [] {
    Place p;
    p.root = fs::temp_directory_path() / ("articulate-fuzz-slurm-" + std::to_string(::getpid()));
    p.work = p.root / "work";
    fs::create_directories(p.work);
    p.recorder = p.root / "rec 'q' \"$(touch X)\" `id` ;x";
    p.args = p.root / "args";
    p.script = p.root / "job.sh";
    std::ofstream(p.recorder) << "#!/bin/sh\nprintf '%s\\0' \"$@\" > " << art::sweep::shellQuote(p.args.string()) << "\n";
    fs::permissions(p.recorder, fs::perms::owner_all);
    return p;
  }();
  return p;
}

std::string readAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const int tasks = 1 + data[size - 2] % 64, cpus = 1 + data[size - 1] % 8;
  std::vector<std::string> parts(1);
  for (std::size_t k = 0; k + 2 < size; ++k) {
    if (data[k] == 0) parts.emplace_back();
    else parts.back() += static_cast<char>(data[k]);
  }
  parts.resize(3);
  const Place& p = place();
  std::string script;
  try {
    script = art::sweep::slurmScript(p.recorder.string(), parts[0], parts[1], tasks, cpus, parts[2]);
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).empty()) finding("a refusal says nothing", parts[0]);
    return 0;
  } catch (const fs::filesystem_error&) {
    return 0;  // a path the system cannot make absolute
  }
  std::ofstream(p.script, std::ios::trunc) << script;
  fs::remove(p.args);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, p.work.c_str());
  std::string task = "SLURM_ARRAY_TASK_ID=0";
  std::string pathVar = "PATH=/usr/bin:/bin";
  char* env[] = {task.data(), pathVar.data(), nullptr};
  std::string bash = "/bin/bash", file = p.script.string();
  char* argv[] = {bash.data(), file.data(), nullptr};
  pid_t pid = 0;
  if (posix_spawn(&pid, "/bin/bash", &actions, nullptr, argv, env) != 0) finding("bash does not start", script);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) finding("the job script does not run", script);
  const std::string expected = std::string("sweep") + '\0' + fs::absolute(parts[0]).lexically_normal().string() + '\0' + "-o" +
                               '\0' + fs::absolute(parts[1]).lexically_normal().string() + '\0' + "--task" + '\0' + "0/" +
                               std::to_string(tasks) + '\0' + "-j" + '\0' + std::to_string(cpus) + '\0' + "--quiet" + '\0';
  if (readAll(p.args) != expected) finding("the sweep command got other arguments", script);
  if (!fs::is_empty(p.work)) finding("the job script made a file", script);
  return 0;
}
