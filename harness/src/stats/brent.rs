//! Brent's root finder with the stopping rule and step choices of SciPy's `brentq`
//! (the solver fishtest calls), so our roots agree with fishtest's to the last bits.

/// SciPy's default absolute tolerance.
pub const XTOL: f64 = 2e-12;
/// SciPy's default relative tolerance (4 ε).
pub const RTOL: f64 = 4.0 * f64::EPSILON;
const MAX_ITER: usize = 100;

/// A root of `f` in `[a, b]`, where `f(a)` and `f(b)` have opposite signs; `None` if they
/// do not (or a value is NaN).
pub fn brentq(f: impl Fn(f64) -> f64, a: f64, b: f64) -> Option<f64> {
    let (mut x_prev, mut x_cur) = (a, b);
    let (mut f_prev, mut f_cur) = (f(x_prev), f(x_cur));
    if f_prev.is_nan() || f_cur.is_nan() {
        return None;
    }
    if f_prev == 0.0 {
        return Some(x_prev);
    }
    if f_cur == 0.0 {
        return Some(x_cur);
    }
    if f_prev.is_sign_negative() == f_cur.is_sign_negative() {
        return None;
    }
    // x_block is the other end of the bracket; step_prev/step_cur the last two steps.
    let (mut x_block, mut f_block) = (0.0, 0.0);
    let (mut step_prev, mut step_cur) = (0.0, 0.0);
    for _ in 0..MAX_ITER {
        if f_prev != 0.0 && f_cur != 0.0 && f_prev.is_sign_negative() != f_cur.is_sign_negative() {
            x_block = x_prev;
            f_block = f_prev;
            step_prev = x_cur - x_prev;
            step_cur = step_prev;
        }
        if f_block.abs() < f_cur.abs() {
            x_prev = x_cur;
            x_cur = x_block;
            x_block = x_prev;
            f_prev = f_cur;
            f_cur = f_block;
            f_block = f_prev;
        }
        let tol = (XTOL + RTOL * x_cur.abs()) / 2.0;
        let bisect = (x_block - x_cur) / 2.0;
        if f_cur == 0.0 || bisect.abs() < tol {
            return Some(x_cur);
        }
        let mut take_bisection = true;
        if step_prev.abs() > tol && f_cur.abs() < f_prev.abs() {
            let trial = if x_prev == x_block {
                // Secant through the two latest points.
                -f_cur * (x_cur - x_prev) / (f_cur - f_prev)
            } else {
                // Inverse quadratic interpolation through all three.
                let d_prev = (f_prev - f_cur) / (x_prev - x_cur);
                let d_block = (f_block - f_cur) / (x_block - x_cur);
                -f_cur * (f_block * d_block - f_prev * d_prev)
                    / (d_block * d_prev * (f_block - f_prev))
            };
            if 2.0 * trial.abs() < step_prev.abs().min(3.0 * bisect.abs() - tol) {
                step_prev = step_cur;
                step_cur = trial;
                take_bisection = false;
            }
        }
        if take_bisection {
            step_prev = bisect;
            step_cur = bisect;
        }
        x_prev = x_cur;
        f_prev = f_cur;
        if step_cur.abs() > tol {
            x_cur += step_cur;
        } else {
            x_cur += if bisect > 0.0 { tol } else { -tol };
        }
        f_cur = f(x_cur);
        if f_cur.is_nan() {
            return None;
        }
    }
    Some(x_cur)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_roots() {
        let r = brentq(|x| x * x - 2.0, 0.0, 2.0).unwrap();
        assert!((r - 2f64.sqrt()).abs() < 1e-11);
        let r = brentq(|x| (x - 0.3).powi(3), -1.0, 1.0).unwrap();
        assert!((r - 0.3).abs() < 1e-4);
        assert!(brentq(|x| x * x + 1.0, -1.0, 1.0).is_none());
        assert_eq!(brentq(|x| x, 0.0, 1.0), Some(0.0));
    }
}
