/* Included first (-include) into each of musl's math sources that cpp/common/libm.cmake compiles,
 * natively and in the wasm build alike: every function they define or call among themselves
 * gets an rl_musl_ name, so the copy the core calls (cpp/common/libm.h) is this one in both builds,
 * never glibc's, nor a libc function of the same name the linker might pick instead.
 *
 * The system's <math.h> comes first, under its own names; musl's internal libm.h then includes it
 * again (a no-op) and declares its helpers under the names below. `hidden` and `weak_alias` are
 * what musl's own src/include/features.h defines; lgamma_r.c's alias lgamma_r is not made. */
#include <float.h>
#include <math.h>
#include <stdint.h>

#define hidden __attribute__((__visibility__("hidden")))
#define weak_alias(old, new) extern int rl_musl_no_alias

#define sin rl_musl_sin
#define cos rl_musl_cos
#define tan rl_musl_tan
#define asin rl_musl_asin
#define acos rl_musl_acos
#define atan rl_musl_atan
#define atan2 rl_musl_atan2
#define sinh rl_musl_sinh
#define cosh rl_musl_cosh
#define tanh rl_musl_tanh
#define asinh rl_musl_asinh
#define acosh rl_musl_acosh
#define atanh rl_musl_atanh
#define exp rl_musl_exp
#define expm1 rl_musl_expm1
#define log rl_musl_log
#define log1p rl_musl_log1p
#define pow rl_musl_pow
#define cbrt rl_musl_cbrt
#define hypot rl_musl_hypot
#define erf rl_musl_erf
#define erfc rl_musl_erfc
#define __lgamma_r rl_musl_lgamma_r

#define __sin rl_musl_k_sin
#define __cos rl_musl_k_cos
#define __tan rl_musl_k_tan
#define __rem_pio2 rl_musl_rem_pio2
#define __rem_pio2_large rl_musl_rem_pio2_large
#define __expo2 rl_musl_expo2
#define __exp_data rl_musl_exp_data
#define __log_data rl_musl_log_data
#define __pow_log_data rl_musl_pow_log_data
#define __math_oflow rl_musl_math_oflow
#define __math_uflow rl_musl_math_uflow
#define __math_xflow rl_musl_math_xflow
#define __math_invalid rl_musl_math_invalid
#define __math_divzero rl_musl_math_divzero
/* Declared by libm.h, not defined here: renamed so that they do not meet glibc's declarations of
 * its own __sinl, __cosl, __tanl (the long double functions' aliases) and the like. */
#define __sinl rl_musl_k_sinl
#define __cosl rl_musl_k_cosl
#define __tanl rl_musl_k_tanl
#define __rem_pio2l rl_musl_rem_pio2l
#define __polevll rl_musl_polevll
#define __p1evll rl_musl_p1evll
#define __rem_pio2f rl_musl_rem_pio2f
#define __sindf rl_musl_k_sindf
#define __cosdf rl_musl_k_cosdf
#define __tandf rl_musl_k_tandf
#define __expo2f rl_musl_expo2f
#define __lgammaf_r rl_musl_lgammaf_r
#define __lgammal_r rl_musl_lgammal_r
#define __math_xflowf rl_musl_math_xflowf
#define __math_uflowf rl_musl_math_uflowf
#define __math_oflowf rl_musl_math_oflowf
#define __math_divzerof rl_musl_math_divzerof
#define __math_invalidf rl_musl_math_invalidf
#define __math_invalidl rl_musl_math_invalidl

/* The system's <math.h> declared these under their own names (above): declared again here, under
 * the new ones, for the files that call each other (erf calls exp, atan2 atan, …). */
double sin(double);
double cos(double);
double tan(double);
double asin(double);
double acos(double);
double atan(double);
double atan2(double, double);
double sinh(double);
double cosh(double);
double tanh(double);
double asinh(double);
double acosh(double);
double atanh(double);
double exp(double);
double expm1(double);
double log(double);
double log1p(double);
double pow(double, double);
double cbrt(double);
double hypot(double, double);
double erf(double);
double erfc(double);
