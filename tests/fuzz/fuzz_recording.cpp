// libFuzzer harness for sweep run recordings (.arec; see README.md in this directory).
//
// The input bytes are a recording file, read by readRecording as `articulate-cli sweep --show`
// and the sweep window's playback read it. Only std::runtime_error naming the file may leave
// the reader. A recording that reads has nq and nv columns of q and v for each of its samples,
// a kinetic and a potential energy each, every number finite and times that never decrease
// (playback and the plots rely on them).
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "articulate/batch/sweep.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using fuzz::finding;
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("articulate-fuzz-" + std::to_string(::getpid()) + ".arec")).string();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  art::sweep::RunRecording r;
  try {
    r = art::sweep::readRecording(path);
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).rfind(path + ": ", 0) != 0) finding("a refusal does not name the file", e.what());
    return 0;
  }
  const std::size_t n = r.t.size();
  if (r.q.rows() != r.nq || r.v.rows() != r.nv || static_cast<std::size_t>(r.q.cols()) != n ||
      static_cast<std::size_t>(r.v.cols()) != n || r.kinetic.size() != n || r.potential.size() != n)
    finding("a recording's columns do not match its samples", std::to_string(n));
  for (std::size_t s = 0; s < n; ++s) {
    if (!std::isfinite(r.t[s]) || (s > 0 && r.t[s] < r.t[s - 1])) finding("a sample time is not finite or goes back", std::to_string(s));
    if (!std::isfinite(r.kinetic[s]) || !std::isfinite(r.potential[s])) finding("an energy is not finite", std::to_string(s));
  }
  if (!r.q.allFinite() || !r.v.allFinite()) finding("a state is not finite", std::to_string(n));
  return 0;
}
