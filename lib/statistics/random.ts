/**
 * A small seeded pseudo-random generator (mulberry32, public domain, by Tommy Ettinger) and the samplers the
 * statistics need. Same seed, same sequence, on every platform: bootstrap and Monte Carlo results are
 * reproducible. Not for cryptography.
 */
export interface Random {
  /** uniform in [0, 1) */
  next(): number;
  /** uniform integer in [0, n) */
  int(n: number): number;
  /** standard normal (Marsaglia polar method) */
  normal(): number;
  /** Gamma(shape, 1) (Marsaglia and Tsang 2000; shape < 1 by the u^(1/shape) boost) */
  gamma(shape: number): number;
  /** Beta(a, b) as X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b) */
  beta(a: number, b: number): number;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  let spare: number | undefined;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = (): number => {
    if (spare !== undefined) {
      const value = spare;
      spare = undefined;
      return value;
    }
    let u: number, v: number, s: number;
    do {
      u = 2 * next() - 1;
      v = 2 * next() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const factor = Math.sqrt((-2 * Math.log(s)) / s);
    spare = v * factor;
    return u * factor;
  };
  const gamma = (shape: number): number => {
    if (!(shape > 0)) throw new RangeError(`gamma shape must be > 0, got ${shape}`);
    if (shape < 1) return gamma(shape + 1) * Math.pow(next() || Number.MIN_VALUE, 1 / shape);
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number, v: number;
      do {
        x = normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = next();
      if (u < 1 - 0.0331 * x * x * x * x) return d * v;
      if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
    }
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    normal,
    gamma,
    beta: (a, b) => {
      const x = gamma(a);
      return x / (x + gamma(b));
    },
  };
}
