// detail::SinCosBlocks::fill: sines and cosines of joint angles, several at a time through
// glibc's vector math library (libmvec, the x86-64 vector ABI's _ZGV* functions: 4 lanes with
// AVX2, 2 with SSE2), or one std::sin/std::cos pair per angle where the build has no libmvec.
#include <algorithm>
#include <cmath>

#include "detail.h"

#if defined(ARTICULATE_HAVE_LIBMVEC) && defined(__x86_64__)
#include <immintrin.h>
extern "C" {
#if defined(__AVX2__)
__m256d _ZGVdN4v_sin(__m256d);
__m256d _ZGVdN4v_cos(__m256d);
#else
__m128d _ZGVbN2v_sin(__m128d);
__m128d _ZGVbN2v_cos(__m128d);
#endif
}
#define ARTICULATE_VECTOR_SINCOS 1
#endif

namespace art::detail {

void SinCosBlocks::fill(int i) {
  m_begin = i;
  const int n = std::min(kBlock, m_n - i);
#ifdef ARTICULATE_VECTOR_SINCOS
  alignas(32) double x[kBlock] = {};
  std::copy(m_q + i, m_q + i + n, x);
#if defined(__AVX2__)
  for (int k = 0; k < kBlock; k += 4) {
    const __m256d v = _mm256_load_pd(x + k);
    _mm256_store_pd(m_s + k, _ZGVdN4v_sin(v));
    _mm256_store_pd(m_c + k, _ZGVdN4v_cos(v));
  }
#else
  for (int k = 0; k < kBlock; k += 2) {
    const __m128d v = _mm_load_pd(x + k);
    _mm_store_pd(m_s + k, _ZGVbN2v_sin(v));
    _mm_store_pd(m_c + k, _ZGVbN2v_cos(v));
  }
#endif
#else
  for (int k = 0; k < n; ++k) {
    m_s[k] = std::sin(m_q[i + k]);
    m_c[k] = std::cos(m_q[i + k]);
  }
#endif
}

void sinCosLanes(const double* x, double* s, double* c) {
#if defined(ARTICULATE_VECTOR_SINCOS) && defined(__AVX2__)
  const __m256d v = _mm256_load_pd(x);
  _mm256_store_pd(s, _ZGVdN4v_sin(v));
  _mm256_store_pd(c, _ZGVdN4v_cos(v));
#else
  for (int k = 0; k < 4; ++k) {
    s[k] = std::sin(x[k]);
    c[k] = std::cos(x[k]);
  }
#endif
}

}  // namespace art::detail
