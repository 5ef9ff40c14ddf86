"""The special functions of ``torch.special`` and ``torch`` on numpy arrays, as torch's CPU kernels
compute them.

Note [Special functions]: torch implements these itself (ATen's ``Math.h``: ports of the Cephes Math
Library, Faddeeva's erfcx, its own recurrences for the orthogonal polynomials), in the precision of
the input (float for float32, and for half and bfloat16 after widening them; double for float64).
Where torch's algorithm is scipy.special's as well and the two agree at the special points and at
the edges of every approximation (``tests/data/torch_special_family.json`` records torch's answers
there), a function here calls scipy.special after applying torch's boundary rules (its igamma of a
nan ``a`` at ``x == 0`` is 0, say). Where torch's algorithm differs (its Bessel J/Y and Airy kernels
evaluate some rational approximations without the leading term of the denominator, its trigamma
reflects through ``sin(pi x)``, which is not 0 at negative integers, its Hurwitz zeta is nan at
``q = inf``, ...), the function computes torch's algorithm: every branch is a mask, and every loop
runs over the elements that are still iterating, so no Python loop runs per element.

scipy is an optional dependency, imported on first use (numpy has no gamma, error-function or
Bessel family); a function that needs it raises ``ModuleNotFoundError`` naming the operator and
scipy when it is absent. The coefficient tables are the Cephes Math Library's (Stephen L. Moshier;
the ones torch's kernels use).
"""

import math

import numpy as np

__all__ = [
    "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "digamma", "entr", "igamma", "igammac",
    "lgamma", "log_ndtr", "polygamma", "polynomial", "scipy_special", "spherical_bessel_j0", "trigamma", "xlog1py", "zeta",
    "POLYNOMIALS",
]

_PI = math.pi


def scipy_special(op):
    """``scipy.special``, or the error naming ``op`` (``aten::lgamma``) and scipy when it is absent."""
    try:
        import scipy.special as sp  # noqa: PLC0415 - optional: only these kernels need it
    except ImportError:
        raise ModuleNotFoundError(
            f"{op}: opyard computes this special function with scipy.special (numpy has no equivalent), "
            "and scipy is not installed; install it with `pip install scipy`") from None
    return sp


def _horner(z, coefs):
    """``coefs[0] * z**(n-1) + ... + coefs[-1]``, each step rounded in ``z``'s dtype (torch's loops)."""
    r = np.zeros_like(z)
    for c in coefs:
        r = r * z + z.dtype.type(c)
    return r


def _fill(x, mask, value):
    """``x`` with ``value`` where ``mask`` holds (a new array)."""
    return np.where(mask, x.dtype.type(value), x)



def _piecewise(x, pieces, default=np.nan):
    """An array of ``x``'s shape and dtype: ``fn(x[mask])`` where each ``(mask, fn)`` of ``pieces``
    holds (the first that holds wins), ``default`` elsewhere. Each piece computes only its elements."""
    out = np.empty_like(x)  # laid out as ``x`` (torch's pointwise results follow their input)
    out[...] = default
    todo = np.ones(x.shape, dtype=bool)
    for mask, fn in pieces:
        m = todo & mask
        if m.any():
            out[m] = fn(x[m]) if callable(fn) else fn
        todo &= ~mask
    return out


# ---------------------------------------------------------------------------------------------
# Bessel functions of the first and second kind (J0, J1, Y0, Y1) and Airy's Ai

# Each table lists a polynomial's coefficients from the highest power down. torch evaluates every
# one with Horner's rule from zero (``polevl``), also the denominators Cephes evaluates with an
# implicit leading 1 (``p1evl``): its results differ from Cephes' by up to ~1e-6 between 5 and 6.

_AIRY = {
    "AN": (
        0.346538101525629, 12.007595273964581, 76.27960536152345, 168.08922493463058, 159.75639135016442,
        70.53609068404442, 14.026469116338967, 1.0,
    ),
    "AD": (
        0.5675945326387702, 14.75625625848472, 84.51389701414746, 177.31808814540045, 164.2346928715297,
        71.47784008255756, 14.095913560783403, 1.0,
    ),
    "AFN": (
        -0.1316963234183318, -0.6264565444319123, -0.6931580360369335, -0.2797799815451191,
        -0.04919001326095003, -0.004062659235948854, -0.0001592764962392621, -2.776491081552329e-06,
        -1.6778769848911465e-08,
    ),
    "AFD": (
        13.356042070655324, 32.682503279522464, 26.736704094149957, 9.187074029072596, 1.4752914677166642,
        0.11568717379518804, 0.004402916416152112, 7.547203482874142e-05, 4.5185009297058035e-07,
    ),
    "AGN": (
        0.01973399320916857, 0.39110302961568827, 1.0657989759959559, 0.9391692298166502, 0.35146565610554764,
        0.06338889196289255, 0.005858041130483885, 0.000282851600836737, 6.98793669997261e-06,
        8.117892395543892e-08, 3.415517847659236e-10,
    ),
    "AGD": (
        9.30892908077442, 19.835292871831214, 15.564662893286462, 5.476860694229755, 0.9542936116189619,
        0.08645808263523921, 0.004126565238242226, 0.00010125908511650914, 1.1716673321441352e-06,
        4.9183457006293e-09,
    ),
}
_J0 = {
    "PP": (
        0.0007969367292973471, 0.08283523921074408, 1.239533716464143, 5.447250030587687, 8.74716500199817,
        5.303240382353949, 1.0,
    ),
    "PQ": (
        0.0009244088105588637, 0.08562884743544745, 1.2535274390105895, 5.470977403304171, 8.761908832370695,
        5.306052882353947, 1.0,
    ),
    "QP": (
        -0.011366383889846916, -1.2825271867050931, -19.553954425773597, -93.20601521237683,
        -177.68116798048806, -147.07750515495118, -51.41053267665993, -6.050143506007285,
    ),
    "QQ": (
        64.3178256118178, 856.4300259769806, 3882.4018360540163, 7240.467741956525, 5930.727011873169,
        2062.0933166032783, 242.0057402402914,
    ),
    "RP": (
        -4794432209.782018, 1956174919465.5657, -249248344360967.72, 9708622510473064.0,
    ),
    "RQ": (
        499.563147152651, 173785.4016763747, 48440965.83399621, 11185553704.535683, 2112775201154.892,
        310518229857422.56, 3.1812195594320496e+16, 1.7108629408104315e+18,
    ),
}
_J1 = {
    "PP": (
        0.0007621256162081731, 0.07313970569409176, 1.1271960812968493, 5.112079511468076, 8.424045901417724,
        5.214515986823615, 1.0,
    ),
    "PQ": (
        0.0005713231280725487, 0.06884559087544954, 1.105142326340617, 5.073863861286015, 8.399855543276042,
        5.209828486823619, 1.0,
    ),
    "QP": (
        0.05108625947501766, 4.982138729512334, 75.82382841325453, 366.7796093601508, 710.8563049989261,
        597.4896124006136, 211.68875710057213, 25.207020585802372,
    ),
    "QQ": (
        74.23732770356752, 1056.4488603826283, 4986.410583376536, 9562.318924047562, 7997.041604473507,
        2826.1927851763908, 336.0936078106983,
    ),
    "RP": (
        -899971225.7055594, 452228297998.19403, -72749424522181.83, 3682957328638529.0,
    ),
    "RQ": (
        620.8364781180543, 256987.25675774884, 83514679.14319493, 22151159547.97925, 4749141220799.914,
        784369607876235.9, 8.952223361846274e+16, 5.322786203326801e+18,
    ),
}
_Y0 = {
    "PP": (
        0.0007969367292973471, 0.08283523921074408, 1.239533716464143, 5.447250030587687, 8.74716500199817,
        5.303240382353949, 1.0,
    ),
    "PQ": (
        0.0009244088105588637, 0.08562884743544745, 1.2535274390105895, 5.470977403304171, 8.761908832370695,
        5.306052882353947, 1.0,
    ),
    "QP": (
        -0.011366383889846916, -1.2825271867050931, -19.553954425773597, -93.20601521237683,
        -177.68116798048806, -147.07750515495118, -51.41053267665993, -6.050143506007285,
    ),
    "QQ": (
        64.3178256118178, 856.4300259769806, 3882.4018360540163, 7240.467741956525, 5930.727011873169,
        2062.0933166032783, 242.0057402402914,
    ),
    "YP": (
        15592.436785523574, -14663929.59039716, 5435264770.518765, -982136065717.9115, 87590639439536.7,
        -3466283033847297.0, 4.4273326857256984e+16, -1.8495080043698668e+16,
    ),
    "YQ": (
        1041.2835366425984, 626107.330137135, 268919633.39381415, 86400248710.3935, 20297961275010.555,
        3171577528429750.5, 2.5059625617265306e+17,
    ),
}
_Y1 = {
    "PP": (
        0.0007621256162081731, 0.07313970569409176, 1.1271960812968493, 5.112079511468076, 8.424045901417724,
        5.214515986823615, 1.0,
    ),
    "PQ": (
        0.0005713231280725487, 0.06884559087544954, 1.105142326340617, 5.073863861286015, 8.399855543276042,
        5.209828486823619, 1.0,
    ),
    "QP": (
        0.05108625947501766, 4.982138729512334, 75.82382841325453, 366.7796093601508, 710.8563049989261,
        597.4896124006136, 211.68875710057213, 25.207020585802372,
    ),
    "QQ": (
        74.23732770356752, 1056.4488603826283, 4986.410583376536, 9562.318924047562, 7997.041604473507,
        2826.1927851763908, 336.0936078106983,
    ),
    "YP": (
        1263204747.9017804, -647355876379.1603, 114509511541823.73, -8127702555013251.0, 2.024394757135949e+17,
        -7.788771962659501e+17,
    ),
    "YQ": (
        594.3015923461282, 235564.09294306856, 73481194.44597217, 18760131610.870617, 3882312774962.3857,
        620557727146953.8, 6.871410873553005e+16, 3.9727060811656064e+18,
    ),
}

_PIO4 = 0.785398163397448309615660845819875721
_3PIO4 = 2.356194490192344928846982537459627163
_SQ2OPI = 0.797884560802865355879892119868763737
_TWOOPI = 0.636619772367581343075535053490057448


def _asymptotic(ax, table, phase, w, second_kind):
    """The large-argument form of J (``second_kind`` False) or Y: ``(P cos(x - phase) -+ w Q sin(x -
    phase)) sqrt(2/(pi x))`` with ``P = PP/PQ`` and ``Q = QP/QQ`` evaluated at ``w**2``..."""
    T = ax.dtype.type
    z = w(ax)
    p = _horner(z, table["PP"]) / _horner(z, table["PQ"])
    q = _horner(z, table["QP"]) / _horner(z, table["QQ"])
    s, c = np.sin(ax - T(phase)), np.cos(ax - T(phase))
    if second_kind:
        body = p * s + T(5.0) / ax * q * c
    else:
        body = p * c - T(5.0) / ax * q * s
    return body * T(_SQ2OPI) / np.sqrt(ax)


def _w_j0(ax):
    return ax.dtype.type(25.0) / (ax * ax)


def _w_j1(ax):
    five = ax.dtype.type(5.0)
    return five / ax * (five / ax)


def bessel_j0(x):
    """J0: a rational function of x**2 with J0's first two zeros as factors up to 5, the asymptotic
    form beyond."""
    T = x.dtype.type
    ax = np.abs(x)

    def small(a):
        z = a * a
        body = (z - T(5.78318596294678452118e+00)) * (z - T(3.04712623436620863991e+01)) * _horner(z, _J0["RP"]) \
            / _horner(z, _J0["RQ"])
        return np.where(a < T(1e-5), T(1.0) - z / T(4.0), body)
    return _piecewise(ax, [(ax <= T(5.0), small), (ax > T(5.0), lambda a: _asymptotic(a, _J0, _PIO4, _w_j0, False))])


def bessel_j1(x):
    """J1 (odd): ``x`` times a rational function of x**2 up to 5, the asymptotic form beyond."""
    T = x.dtype.type
    ax = np.abs(x)

    def small(v):  # v is x itself: the rational form is odd, as torch's negation of J1(-x)
        z = v * v
        return _horner(z, _J1["RP"]) / _horner(z, _J1["RQ"]) * v * (z - T(1.46819706421238932572e+01)) \
            * (z - T(4.92184563216946036703e+01))
    r = _piecewise(x, [(ax <= T(5.0), small)])
    big = ax > T(5.0)
    if big.any():
        r[big] = _asymptotic(ax[big], _J1, _3PIO4, _w_j1, False) * np.where(x[big] < 0, T(-1.0), T(1.0))
    return r


def bessel_y0(x):
    """Y0: -inf at 0, nan below; ``yp/yq + (2/pi) log(x) J0(x)`` up to 5, the asymptotic form beyond."""
    T = x.dtype.type

    def small(a):
        z = a * a
        return _horner(z, _Y0["YP"]) / _horner(z, _Y0["YQ"]) + T(_TWOOPI) * np.log(a) * bessel_j0(a)
    return _piecewise(x, [(x == 0, -np.inf), (x < 0, np.nan), (x <= T(5.0), small),
                          (x > T(5.0), lambda a: _asymptotic(a, _Y0, _PIO4, _w_j0, True))])


def bessel_y1(x):
    """Y1: -inf at 0, nan below; ``x yp/yq + (2/pi) (J1(x) log(x) - 1/x)`` up to 5, the asymptotic
    form beyond."""
    T = x.dtype.type

    def small(a):
        z = a * a
        return a * (_horner(z, _Y1["YP"]) / _horner(z, _Y1["YQ"])) \
            + T(_TWOOPI) * (bessel_j1(a) * np.log(a) - T(1.0) / a)
    return _piecewise(x, [(x == 0, -np.inf), (x <= 0, np.nan), (x <= T(5.0), small),
                          (x > T(5.0), lambda a: _asymptotic(a, _Y1, _3PIO4, _w_j1, True))])


def airy_ai(x):
    """Ai: nan at +-inf, 0 past 103.892; the asymptotic forms below -2.09 and from 2.09, the
    Maclaurin series in between (summed until a term is below the dtype's epsilon)."""
    T = x.dtype.type

    def negative(a):
        zeta = T(-2.0) * a * np.sqrt(-a) / T(3.0)
        z = T(1.0) / zeta
        zz = z * z
        afn, afd = _horner(zz, _AIRY["AFN"]), _horner(zz, _AIRY["AFD"])
        agn, agd = _horner(zz, _AIRY["AGN"]), _horner(zz, _AIRY["AGD"])
        t = zeta + T(0.25) * T(_PI)
        return T(5.64189583547756286948e-01) / np.sqrt(np.sqrt(-a)) \
            * (np.sin(t) * (T(1.0) + zz * afn / afd) - np.cos(t) * (z * agn / agd))

    def positive(a):
        zeta = T(2.0) * a * np.sqrt(a) / T(3.0)
        iz = T(1.0) / zeta
        an, ad = _horner(iz, _AIRY["AN"]), _horner(iz, _AIRY["AD"])
        return T(5.64189583547756286948e-01) * (an / ad) / (T(2.0) * np.sqrt(np.sqrt(a)) * np.exp(zeta))

    return _piecewise(x, [(np.isinf(x), np.nan), (x > T(103.892), 0.0), (x < T(-2.09), negative),
                          (x >= T(2.09), positive), (np.ones(x.shape, bool), _airy_series)])


def _airy_series(x):
    """``c1 f(x) - c2 g(x)`` with Ai's two Maclaurin series, summed term by term until the ratio of
    the last term of ``f`` to ``f`` is at most the dtype's epsilon (torch's stopping rule)."""
    T = x.dtype.type
    eps = np.finfo(x.dtype).eps
    f, g = np.ones_like(x), x.copy()
    m, n = np.ones_like(x), x.copy()
    z = x * x * x
    k = T(1.0)
    active = np.ones(x.shape, bool)
    while active.any():
        i = np.flatnonzero(active)
        mi, ni = m[i] * z[i], n[i] * z[i]
        k1 = k + T(1.0)
        mi = mi / k1
        k2 = k1 + T(1.0)
        ni = ni / k2
        mi = mi / k2
        fi = f[i] + mi
        k = k2 + T(1.0)
        ni = ni / k
        g[i] = g[i] + ni
        f[i], m[i], n[i] = fi, mi, ni
        active[i] = np.abs(mi / fi) > eps
    return T(0.355028053887817239260) * f - T(0.258819403792806798405) * g


def spherical_bessel_j0(x):
    """``sin(x)/x``: 0 at +-inf, its Taylor polynomial below 0.5 in magnitude."""
    T = x.dtype.type

    def series(a):
        z = a * a
        c = [T(1.0) / T(6227020800.0), T(-1.0) / T(39916800.0), T(1.0) / T(362880.0), T(-1.0) / T(5040.0),
             T(1.0) / T(120.0), T(-1.0) / T(6.0)]
        acc = z * c[0]
        for coef in c[1:]:
            acc = z * (coef + acc)
        return T(1.0) + acc
    return _piecewise(x, [(np.isinf(x), 0.0), (np.abs(x) < T(0.5), series),
                          (np.ones(x.shape, bool), lambda a: np.sin(a) / a)])


# ---------------------------------------------------------------------------------------------
# The gamma family: digamma, trigamma, polygamma, the Hurwitz zeta, the incomplete gamma ratios

_PSI_10 = 2.25175258906672110764
_PSI_ASYMPTOTIC = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                   -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
                   8.33333333333333333333E-2)


def _digamma_positive(x):
    """digamma of positive (or nan) ``x``: shifted up to 10 by the recurrence, then ``log(x) - 1/(2x)``
    and the asymptotic series (exactly ``psi(10)`` at 10)."""
    T = x.dtype.type
    result = np.zeros_like(x)
    below = x < T(10.0)
    # At most ten steps for positive x: whole-array passes, each element stepping while below 10
    # (the same operations in the same order as torch's loop; an element at or above 10 subtracts
    # 0 / x and adds 0, a nan stays nan). Unmasked ufuncs: numpy's where= path is slower.
    x = x.copy()
    step = np.empty_like(x)
    while below.any():
        np.divide(below, x, out=step)
        np.subtract(result, step, out=result)
        np.add(x, below, out=x)
        np.less(x, T(10.0), out=below)
    z = T(1.0) / (x * x)
    y = np.where(x < T(1.0e17), z * _horner(z, _PSI_ASYMPTOTIC), T(0.0))
    return np.where(x == T(10.0), result + T(_PSI_10), result + np.log(x) - T(0.5) / x - y)


def digamma(x):
    """digamma: -+inf at +-0 (the sign opposite to the zero's), nan at negative integers, the
    reflection ``psi(1 - x) - pi / tan(pi frac(x))`` below 0 (the tangent in double precision)."""
    T = x.dtype.type

    def negative(a):
        frac = np.modf(a.astype(np.float64))[0]
        return _digamma_positive(T(1.0) - a) - (np.pi / np.tan(np.pi * frac)).astype(x.dtype)
    return _piecewise(x, [(x == 0, lambda a: np.copysign(T(np.inf), -a)), (x < 0, lambda a: np.where(
        a == np.trunc(a), T(np.nan), negative(a))), (np.ones(x.shape, bool), _digamma_positive)])


def trigamma(x):
    """trigamma: the reflection through ``pi**2 / sin(pi x)**2`` below 0.5 (finite at the negative
    integers, where ``sin`` of the rounded ``pi x`` is not 0), six steps of the recurrence and the
    asymptotic series."""
    T = x.dtype.type
    reflect = x < T(0.5)
    s = np.sin(T(_PI) * x)
    result = np.where(reflect, -(T(_PI) * T(_PI)) / (s * s), T(0.0))
    x = np.where(reflect, T(1.0) - x, x)
    for _ in range(6):
        result = result + T(1.0) / (x * x)
        x = x + T(1.0)
    ixx = T(1.0) / (x * x)
    tail = (T(1.0) + T(1.0) / (T(2.0) * x) + ixx * (T(1.0 / 6) - ixx * (T(1.0 / 30) - ixx * T(1.0 / 42)))) / x
    return np.where(reflect, T(-1.0), T(1.0)) * (result + tail)


_MACHEP = 1.11022302462515654042E-16
_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
           1.8152105401943546773e17, -7.1661652561756670113e18)


def zeta(x, q):
    """The Hurwitz zeta ``sum_k (k + q)**-x``, in double precision whatever the dtype (torch's CPU
    accumulate type): inf at x == 1, nan below; at ``q <= 0`` inf for integral ``q``, nan for
    non-integral ``x``; otherwise the direct sum up to ``q + 9`` (at least nine terms) and the
    Euler-Maclaurin tail, each stopped once its last term is below ``MACHEP`` of the sum."""
    dtype = np.result_type(x, q)
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    out = np.full(x.shape, np.nan)
    out[x == 1.0] = np.inf
    todo = ~((x == 1.0) | (x < 1.0))
    nonpositive = todo & (q <= 0.0)
    inf_q = nonpositive & (q == np.floor(q))
    out[inf_q] = np.inf
    todo &= ~inf_q & ~(nonpositive & (x != np.floor(x)))
    i = np.flatnonzero(todo)
    xs, a = x.reshape(-1)[i], q.reshape(-1)[i].copy()
    s = a ** -xs
    res = np.full(i.shape, np.nan)
    # The elements still summing, compacted only when some stop (in the first nine steps, rarely):
    # each step is whole-array arithmetic on them.
    at = np.arange(i.size)
    steps = 0
    while at.size:
        steps += 1
        a = a + 1.0
        b = a ** -xs
        s = s + b
        done = (-_MACHEP * s < b) & (b < _MACHEP * s)
        still = ~done & ((steps < 9) | (a <= 9.0))
        if still.all():
            continue
        res[at[done]] = s[done]
        tail = ~done & ~still
        if tail.any():
            res[at[tail]] = _zeta_tail(xs[tail], a[tail], b[tail], s[tail])
        at, a, xs, s = at[still], a[still], xs[still], s[still]
    out.reshape(-1)[i] = res
    return out.astype(dtype, copy=False)


def _zeta_tail(x, a, b, s):
    """The Euler-Maclaurin tail of the Hurwitz zeta after the direct sum stopped at ``a``."""
    w = a
    s = s + b * w / (x - 1.0)
    s = s - 0.5 * b
    acc, k = np.ones_like(x), 0.0
    out = s.copy()
    active = np.ones(x.shape, bool)
    for coef in _ZETA_A:
        if not active.any():
            break
        acc = acc * (x + k)
        b = b / w
        t = acc * b / coef
        s = np.where(active, s + t, s)
        conv = active & (np.abs(t / s) < _MACHEP)
        out[conv] = s[conv]
        active &= ~conv
        k += 1.0
        acc = acc * (x + k)
        b = b / w
        k += 1.0
    out[active] = s[active]
    return out


def polygamma(n, x, lgamma):
    """The n-th derivative of digamma: digamma for n == 0, trigamma for 1, and
    ``(-1)**(n + 1) n! zeta(n + 1, x)`` beyond (``lgamma``: the log-gamma function)."""
    if n == 0:
        return digamma(x)
    if n == 1:
        return trigamma(x)
    T = x.dtype.type
    factor = (T(1.0) if n % 2 else T(-1.0)) * T(math.exp(lgamma(float(n) + 1.0)))
    return factor * zeta(np.asarray(T(n + 1)), x).astype(x.dtype, copy=False)


def _igamma_bounds(a, x, lower):
    """torch's boundary rules of the regularized incomplete gamma ratios, in their order: nan for a
    negative argument, then ``a == 0``, ``x == 0``, infinite ``a``, infinite ``x``. Returns
    ``(values, decided)``."""
    out = np.full(a.shape, np.nan, dtype=a.dtype)
    decided = (x < 0) | (a < 0)
    one, zero = (1.0, 0.0) if lower else (0.0, 1.0)

    def rule(mask, value):
        nonlocal decided
        m = mask & ~decided
        out[m] = value if np.ndim(value) == 0 else value[m]
        decided = decided | mask

    rule(a == 0, np.where(x > 0, one, np.nan).astype(a.dtype))
    rule(x == 0, zero)
    rule(np.isinf(a), np.where(np.isinf(x), np.nan, zero).astype(a.dtype))
    rule(np.isinf(x), one)
    return out, decided


def _igamma(name, a, x, lower):
    sp = scipy_special(f"aten::{name}")
    a, x = np.broadcast_arrays(a, x)
    out, decided = _igamma_bounds(a, x, lower)
    rest = ~decided
    if rest.any():
        fn = sp.gammainc if lower else sp.gammaincc
        out[rest] = fn(a[rest], x[rest])
    return out


def igamma(a, x):
    """The regularized lower incomplete gamma ``P(a, x)`` (scipy's gammainc, torch's algorithm, with
    torch's boundary rules)."""
    return _igamma("igamma", a, x, True)


def igammac(a, x):
    """The regularized upper incomplete gamma ``Q(a, x)``."""
    return _igamma("igammac", a, x, False)


# ---------------------------------------------------------------------------------------------
# The normal distribution and the entropy terms

def lgamma(x):
    """``log|Gamma(x)|`` (scipy's gammaln; +inf at -inf, as C's lgamma and torch)."""
    r = scipy_special("aten::lgamma").gammaln(x)
    return np.where(x == -np.inf, x.dtype.type(np.inf), r)


def log_ndtr(x):
    """``log(ndtr(x))``: ``log(erfcx(-t) / 2) - t**2`` below -1, ``log1p(-erfc(t) / 2)`` above, with
    ``t = x / sqrt(2)``."""
    sp = scipy_special("aten::special_log_ndtr")
    T = x.dtype.type
    t = x * T(math.sqrt(0.5))  # M_SQRT1_2
    low = x < T(-1.0)
    return np.where(low, np.log(sp.erfcx(-t) / T(2.0)) - t * t, np.log1p(-sp.erfc(t) / T(2.0)))


def entr(x):
    """``-x log(x)``: 0 at 0, -inf below, nan at nan."""
    return _piecewise(x, [(np.isnan(x), np.nan), (x > 0, lambda a: -a * np.log(a)), (x == 0, 0.0)],
                      default=-np.inf)


def xlog1py(x, y, result=None):
    """``x log1p(y)``: nan where ``y`` is nan, else 0 where ``x == 0``. With half-precision data
    (``result`` its numpy dtype) torch's kernel rounds ``log1p(y)`` to that type before multiplying."""
    lg = np.log1p(y)
    if result is not None and result != lg.dtype:
        lg = lg.astype(result).astype(lg.dtype)
    r = x * lg
    return np.where(np.isnan(y), y.dtype.type(np.nan), np.where(x == 0, r.dtype.type(0), r))


# ---------------------------------------------------------------------------------------------
# Orthogonal polynomials of integral degree n (torch truncates a floating n; a nan or infinite n,
# or one past int64, is negative: the polynomial is 0)

def _fms(a, b, c):
    """``a * b - c`` as torch's compiled recurrences compute it: one fused multiply-subtract (the
    compiler contracts it), emulated for float32 in double precision (the product of two floats is
    exact there) and rounded once; float64 computes it plainly (within an ulp)."""
    if a.dtype == np.float32:
        return (a.astype(np.float64) * b.astype(np.float64) - c.astype(np.float64)).astype(np.float32)
    return a * b - c


def _degree(n):
    """torch's ``static_cast<int64_t>(n)``: truncation, and -1 where the cast is undefined (x86 gives
    INT64_MIN there, a negative degree alike)."""
    if n.dtype.kind in "iub":
        return n.astype(np.int64)
    ok = np.isfinite(n) & (np.abs(n) < 2.0 ** 63)
    return np.where(ok, np.trunc(np.where(ok, n, 0)), -1).astype(np.int64)


class _Cases:
    """Assigns values case by case, in order: the first case that holds for an element wins."""

    def __init__(self, shape, dtype):
        self.out = np.zeros(shape, dtype)
        self.todo = np.ones(shape, bool)

    def take(self, mask, value):
        m = self.todo & mask
        if m.any():
            self.out[m] = value[m] if np.ndim(value) else value
        self.todo &= ~mask


def _recur(cases, n, p, q, step, k, last, stop_on_nan=True):
    """Runs ``r = step(k, p, q); p, q = q, r`` for ``k = k, k + 1, ...`` while ``k <= last(n)`` (and
    ``q`` is not nan, when ``stop_on_nan``), over the elements ``cases`` has not decided; each
    element's last ``r`` (``q`` if the loop never ran) is its value."""
    i = np.flatnonzero(cases.todo)
    ni, p, q = n.reshape(-1)[i], p.reshape(-1)[i].copy(), q.reshape(-1)[i].copy()
    end = last(ni)
    active = k <= end
    if stop_on_nan:
        active &= ~np.isnan(q)
    while active.any():
        j = np.flatnonzero(active)
        r = step(k, j, p[j], q[j])
        p[j], q[j] = q[j], r
        k += 1
        active[j] = k <= end[j]
        if stop_on_nan:
            active[j] &= ~np.isnan(r)
    cases.out.reshape(-1)[i] = q
    cases.todo[...] = False
    return cases.out


_CHEBYSHEV_TRIG_FROM = {("t", False): 6, ("u", False): 8, ("v", False): 8, ("w", False): 8,
                        ("t", True): 6, ("u", True): 6, ("v", True): 6, ("w", True): 4}


def _chebyshev(kind, shifted, x, n):
    """Chebyshev polynomials of the first to fourth kind (T, U, V, W), of ``x`` or (``shifted``) of
    ``2x - 1``: the values at the ends of [-1, 1], trigonometric forms inside it for high degrees, the
    three-term recurrence otherwise."""
    T = x.dtype.type
    y = x + x - T(1.0) if shifted else x
    nf = n.astype(x.dtype)
    even = n % 2 == 0
    c = _Cases(x.shape, x.dtype)
    c.take(n < 0, 0.0)
    at_one = (x == T(1.0)) if shifted else ((np.abs(x) == T(1.0)) & (x > 0))
    at_minus_one = (x == T(0.0)) if shifted else ((np.abs(x) == T(1.0)) & ~(x > 0))
    odd_sign = np.where(even, T(1.0), T(-1.0))
    top = {"t": T(1.0), "u": nf + T(1.0), "v": T(1.0), "w": T(2.0) * nf + T(1.0)}[kind]
    bottom = {"t": odd_sign, "u": odd_sign * (nf + T(1.0)), "v": odd_sign * (T(2.0) * nf + T(1.0)),
              "w": odd_sign}[kind]
    c.take(at_one, top)
    c.take(at_minus_one, bottom)
    inside = (n > _CHEBYSHEV_TRIG_FROM[kind, shifted]) & (np.abs(y) < T(1.0))
    if (inside & c.todo).any():
        theta = np.arccos(np.where(inside, y, T(0.0)))
        if kind == "t":
            c.take(inside, np.cos(nf * theta))
        elif kind == "u":
            s = np.sin(theta)
            c.take(inside & (s != 0), np.sin((nf + T(1.0)) * theta) / s)
            c.take(inside, (nf + T(1.0)) * np.cos((nf + T(1.0)) * theta) / y)
        elif kind == "v":
            c.take(inside & (np.sin(theta / T(2.0)) != T(1.0)), np.cos((nf + T(0.5)) * theta) / np.cos(theta / T(2.0)))
            c.take(inside, bottom)
        else:
            c.take(inside & (np.cos(theta / T(2.0)) != T(1.0)), np.sin((nf + T(0.5)) * theta) / np.sin(theta / T(2.0)))
            c.take(inside & (x > 0) & (not shifted), top)
            c.take(inside, bottom)
    first = {"t": y, "u": y + y, "v": y + y - T(1.0), "w": y + y + T(1.0)}[kind]
    c.take(n == 0, 1.0)
    c.take(n == 1, first)
    twice = (y + y).reshape(-1)[np.flatnonzero(c.todo)] if c.todo.any() else None
    return _recur(c, n, np.ones_like(x), first, lambda k, j, p, q: _fms(twice[j], q, p), 2, lambda m: m)


def _hermite(physicists, x, n):
    """Hermite polynomials, physicists' (H) or probabilists' (He): nan past degree 128 (float) or 512
    (double), the recurrence below."""
    T = x.dtype.type
    c = _Cases(x.shape, x.dtype)
    c.take(n < 0, 0.0)
    c.take(n == 0, 1.0)
    first = x + x if physicists else x
    c.take(n == 1, first)
    c.take(n > (128 if x.dtype == np.float32 else 512), np.nan)
    xs = x.reshape(-1)[np.flatnonzero(c.todo)]
    if physicists:  # k = 2, 4, ..., 2n - 2: r = 2x q - k p
        return _recur(c, n, np.ones_like(x), first, lambda k, j, p, q: _fms(xs[j] + xs[j], q, T(2 * k - 2) * p),
                      2, lambda m: m, stop_on_nan=False)
    return _recur(c, n, np.ones_like(x), first, lambda k, j, p, q: _fms(xs[j], q, T(k) * p), 1, lambda m: m - 1,
                  stop_on_nan=False)


def _laguerre(x, n):
    T = x.dtype.type
    c = _Cases(x.shape, x.dtype)
    c.take(n < 0, 0.0)
    c.take(np.abs(x) == T(0.0), 1.0)
    c.take(n == 0, 1.0)
    first = T(1.0) - x
    c.take(n == 1, first)
    xs = first.reshape(-1)[np.flatnonzero(c.todo)]
    return _recur(c, n, np.ones_like(x), first, lambda k, j, p, q: _fms(T(k + k) + xs[j], q, T(k) * p) / T(k + 1),
                  1, lambda m: m - 1)


def _legendre(x, n):
    T = x.dtype.type
    c = _Cases(x.shape, x.dtype)
    c.take(n < 0, 0.0)
    c.take(np.abs(x) == T(1.0), np.where((x > 0) | (n % 2 == 0), T(1.0), T(-1.0)))
    c.take(n == 0, 1.0)
    c.take(n == 1, x)
    xs = x.reshape(-1)[np.flatnonzero(c.todo)]
    return _recur(c, n, np.ones_like(x), x, lambda k, j, p, q: _fms(T(k + k + 1) * xs[j], q, T(k) * p) / T(k + 1),
                  1, lambda m: m - 1)


POLYNOMIALS = {
    "chebyshev_polynomial_t": lambda x, n: _chebyshev("t", False, x, n),
    "chebyshev_polynomial_u": lambda x, n: _chebyshev("u", False, x, n),
    "chebyshev_polynomial_v": lambda x, n: _chebyshev("v", False, x, n),
    "chebyshev_polynomial_w": lambda x, n: _chebyshev("w", False, x, n),
    "shifted_chebyshev_polynomial_t": lambda x, n: _chebyshev("t", True, x, n),
    "shifted_chebyshev_polynomial_u": lambda x, n: _chebyshev("u", True, x, n),
    "shifted_chebyshev_polynomial_v": lambda x, n: _chebyshev("v", True, x, n),
    "shifted_chebyshev_polynomial_w": lambda x, n: _chebyshev("w", True, x, n),
    "hermite_polynomial_h": lambda x, n: _hermite(True, x, n),
    "hermite_polynomial_he": lambda x, n: _hermite(False, x, n),
    "laguerre_polynomial_l": _laguerre,
    "legendre_polynomial_p": _legendre,
}


def polynomial(name, x, n):
    """The polynomial ``name`` (a key of ``POLYNOMIALS``) of degree ``n`` at ``x`` (floating), both
    broadcast to one shape."""
    x, n = np.broadcast_arrays(x, n)
    return POLYNOMIALS[name](np.array(x), _degree(np.array(n)))  # copies: C-contiguous, 0-d kept
