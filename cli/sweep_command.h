#pragma once
// articulate-cli sweep: run a sweep file on every core, slice it for Slurm, collect the slices
// (docs/sweeps.md; the engine's side is articulate/batch/sweep.h).

#include <string>

#include <CLI/CLI.hpp>

struct SweepArgs {
  std::string spec, output, task, collect, partition;
  int threads = 0;  // 0: every core
  bool slurm = false, dryRun = false, quiet = false;
  int tasks = 0, cpus = 1;  // --slurm: array tasks (0: min(runs, 64)) and cores per task
};

/// Adds the `sweep` subcommand with its options to `app`.
CLI::App* addSweepCommand(CLI::App& app, SweepArgs& args);

/// Runs it: 0 done (diverged or invalid runs are rows, not failures), 1 --collect found runs
/// missing, 2 bad input (thrown as exceptions to main), 130 interrupted by Ctrl+C.
int runSweepCommand(const SweepArgs& args);
