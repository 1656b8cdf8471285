import { describe, expect, it } from 'vitest';
import { krippendorffAlpha, type Rating } from './krippendorffAlpha.js';
import { fleissKappa, fleissTable } from './fleissKappa.js';
import { cohenKappa, kappaFromTable } from './cohenKappa.js';
import { annotatorAgreementWithConsensus, consensusByItem } from './consensus.js';
import { agreementSummary } from './agreementSummary.js';

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers, 12 units, values 1-5,
// missing data ('.' = null). Published: nominal 0.743, ordinal 0.815, interval 0.849, ratio 0.797.
const K2011: Record<string, (number | null)[]> = {
  A: [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
  B: [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
  C: [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
  D: [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
};
const k2011: Rating[] = Object.entries(K2011).flatMap(([annotator, row]) =>
  row.flatMap((label, u) => (label === null ? [] : [{ item: `u${u + 1}`, annotator, label }])),
);

describe('krippendorffAlpha', () => {
  it.each([
    ['nominal', 0.743],
    ['ordinal', 0.815],
    ['interval', 0.849],
    ['ratio', 0.797],
  ] as const)('%s alpha on Krippendorff (2011) section C data is %f', (level, published) => {
    const r = krippendorffAlpha(k2011, { level });
    expect(r.alpha!).toBeCloseTo(published, 3);
    // unit 12 has one value and is not pairable: 11 units, 40 pairable values (n.. in the paper)
    expect(r.pairableUnits).toBe(11);
    expect(r.pairableValues).toBe(40);
  });

  it("reproduces the paper's nominal coincidence matrix and alpha = 1 - 312/1216", () => {
    const r = krippendorffAlpha(k2011, { level: 'nominal' });
    expect(r.values).toEqual([1, 2, 3, 4, 5]);
    // paper's coincidence matrix: row 1 = 7, 4/3, 1/3, 1/3, 0; n_c = 9, 13, 10, 5, 3
    expect(r.coincidences[0]).toEqual([7, 4 / 3, 1 / 3, 1 / 3, 0]);
    expect(r.coincidences.map((row) => row.reduce((s, x) => s + x, 0))).toEqual([9, 13, 10, 5, 3].map((x) => expect.closeTo(x, 12)));
    // alpha_nominal = ((n - 1) sum o_cc - sum n_c (n_c - 1)) / (n (n - 1) - sum n_c (n_c - 1)), sum o_cc = 32
    expect(r.coincidences.reduce((s, row, c) => s + row[c]!, 0)).toBeCloseTo(32, 12);
    expect(r.alpha!).toBeCloseTo(1 - 312 / 1216, 12);
  });

  it('ordinal alpha with string labels needs an order and then equals the numeric one', () => {
    const names = ['very low', 'low', 'mid', 'high', 'very high'];
    const named = k2011.map((r) => ({ ...r, label: names[(r.label as number) - 1]! }));
    expect(() => krippendorffAlpha(named, { level: 'ordinal' })).toThrow(/needs an order/);
    const r = krippendorffAlpha(named, { level: 'ordinal', order: names });
    expect(r.alpha!).toBeCloseTo(krippendorffAlpha(k2011, { level: 'ordinal' }).alpha!, 12);
  });

  it('perfect agreement is 1; one value everywhere is undefined (null); chance-level is about 0', () => {
    const perfect = ['a', 'b', 'c', 'a'].flatMap((label, i) => ['x', 'y', 'z'].map((annotator) => ({ item: `${i}`, annotator, label })));
    expect(krippendorffAlpha(perfect, { level: 'nominal' }).alpha).toBe(1);
    const constant = perfect.map((r) => ({ ...r, label: 'a' }));
    expect(krippendorffAlpha(constant, { level: 'nominal' }).alpha).toBeNull();
    // systematic disagreement is below zero
    const opposed = [0, 1, 2, 3].flatMap((i) => [
      { item: `${i}`, annotator: 'x', label: i % 2 },
      { item: `${i}`, annotator: 'y', label: 1 - (i % 2) },
    ]);
    expect(krippendorffAlpha(opposed, { level: 'nominal' }).alpha!).toBeLessThan(0);
  });

  it('rejects non-numeric interval labels, negative ratio labels and a repeated (item, annotator)', () => {
    expect(() => krippendorffAlpha([...k2011, { item: 'u1', annotator: 'Z', label: 'x' }], { level: 'interval' })).toThrow(/numeric/);
    expect(() => krippendorffAlpha([...k2011, { item: 'u1', annotator: 'Z', label: -1 }], { level: 'ratio' })).toThrow(/>= 0/);
    expect(() => krippendorffAlpha([...k2011, { item: 'u1', annotator: 'A', label: 1 }], { level: 'nominal' })).toThrow(/twice/);
  });
});

// Fleiss (1971), Table 1: 30 patients, 6 psychiatrists each, 5 diagnoses (depression, personality disorder,
// schizophrenia, neurosis, other). Published kappa = 0.430 (P-bar 0.556, P_e 0.220).
const FLEISS_1971 = [
  [0, 0, 0, 6, 0],
  [0, 3, 0, 0, 3],
  [0, 1, 4, 0, 1],
  [0, 0, 0, 0, 6],
  [0, 3, 0, 3, 0],
  [2, 0, 4, 0, 0],
  [0, 0, 4, 0, 2],
  [2, 0, 3, 1, 0],
  [2, 0, 0, 4, 0],
  [0, 0, 0, 0, 6],
  [1, 0, 0, 5, 0],
  [1, 1, 0, 4, 0],
  [0, 3, 3, 0, 0],
  [1, 0, 0, 5, 0],
  [0, 2, 0, 3, 1],
  [0, 0, 5, 0, 1],
  [3, 0, 0, 1, 2],
  [5, 1, 0, 0, 0],
  [0, 2, 0, 4, 0],
  [1, 0, 2, 0, 3],
  [0, 0, 0, 0, 6],
  [0, 1, 0, 5, 0],
  [0, 2, 0, 1, 3],
  [2, 0, 0, 4, 0],
  [1, 0, 0, 4, 1],
  [0, 5, 0, 1, 0],
  [4, 0, 0, 0, 2],
  [0, 2, 0, 4, 0],
  [1, 0, 5, 0, 0],
  [0, 0, 0, 0, 6],
];

describe('fleissKappa', () => {
  it('reproduces Fleiss (1971) Table 1: kappa 0.430', () => {
    const r = fleissKappa(FLEISS_1971);
    expect(r.kappa!).toBeCloseTo(0.43, 3);
    expect(r.observedAgreement).toBeCloseTo(0.5556, 4);
    expect(r.expectedAgreement).toBeCloseTo(0.22, 3);
    expect(r).toMatchObject({ subjects: 30, ratersPerSubject: 6, categories: 5 });
  });

  it('fleissTable builds the same counts from raw ratings, and refuses unequal numbers of labels', () => {
    const ratings: Rating[] = FLEISS_1971.flatMap((row, i) =>
      row.flatMap((count, cat) =>
        Array.from({ length: count }, (_, j) => ({ item: `p${i}`, annotator: `r${cat}-${j}`, label: `d${cat}` })),
      ),
    );
    const table = fleissTable(ratings)!;
    expect(fleissKappa(table.counts).kappa).toBeCloseTo(fleissKappa(FLEISS_1971).kappa!, 12);
    expect(fleissTable(ratings.slice(1))).toBeNull();
  });

  it('rejects rows with a different number of ratings, naming the row', () => {
    expect(() =>
      fleissKappa([
        [2, 0],
        [1, 2],
      ]),
    ).toThrow(/counts\[1\]/);
  });
});

describe('cohenKappa', () => {
  // Fleiss, Cohen & Everitt (1969), Psychol Bull 72:323, Table 1 (proportions, n = 200): unweighted kappa 0.492
  it('reproduces Fleiss, Cohen & Everitt (1969) Table 1: kappa 0.492', () => {
    const table = [
      [0.44, 0.07, 0.09],
      [0.05, 0.2, 0.05],
      [0.01, 0.03, 0.06],
    ].map((row) => row.map((p) => Math.round(p * 200)));
    const r = kappaFromTable(table);
    expect(r.kappa!).toBeCloseTo(0.492, 3);
    expect(r.observedAgreement).toBeCloseTo(0.7, 12);
    expect(r.expectedAgreement).toBeCloseTo(0.41, 12);
  });

  it('from pairs: po 0.75, pe 0.5 gives 0.5; both raters constant gives null', () => {
    const r = cohenKappa(
      [
        [1, 1],
        [1, 0],
        [0, 0],
        [0, 0],
      ],
      ['0', '1'],
    );
    expect(r.kappa).toBeCloseTo(0.5, 12);
    expect(r.labels).toEqual(['0', '1']);
    expect(r.table).toEqual([
      [2, 0],
      [1, 1],
    ]);
    expect(
      cohenKappa([
        ['a', 'a'],
        ['a', 'a'],
      ]).kappa,
    ).toBeNull();
  });
});

describe('consensus and agreementSummary', () => {
  const three: Rating[] = [
    ['i1', 'a', 'pass'],
    ['i1', 'b', 'pass'],
    ['i1', 'c', 'fail'],
    ['i2', 'a', 'fail'],
    ['i2', 'b', 'fail'],
    ['i2', 'c', 'fail'],
    ['i3', 'a', 'pass'],
    ['i3', 'b', 'fail'],
    ['i3', 'c', 'pass'],
    ['i4', 'a', 'pass'],
    ['i4', 'b', 'pass'],
    ['i4', 'c', 'pass'],
  ].map(([item, annotator, label]) => ({ item: item!, annotator: annotator!, label: label! }));

  it('majority consensus with support; ties give null; numeric gives the median', () => {
    expect(consensusByItem(three).map((c) => [c.consensus, c.support])).toEqual([
      ['pass', 2 / 3],
      ['fail', 1],
      ['pass', 2 / 3],
      ['pass', 1],
    ]);
    expect(
      consensusByItem([
        { item: 'x', annotator: 'a', label: 'p' },
        { item: 'x', annotator: 'b', label: 'f' },
      ])[0]!.consensus,
    ).toBeNull();
    expect(
      consensusByItem(
        [1, 5, 4].map((label, i) => ({ item: 'x', annotator: `${i}`, label })),
        { numeric: true },
      )[0]!.consensus,
    ).toBe(4);
  });

  it('per-annotator agreement against the leave-one-out majority', () => {
    // c disagrees with a+b on i1; b disagrees with a+c on i3; where the two others split (a and b on i1, a and c on
    // i3) there is no majority to compare with and the item is skipped for that annotator
    const per = Object.fromEntries(annotatorAgreementWithConsensus(three).map((a) => [a.annotator, a]));
    expect(per.c).toEqual({ annotator: 'c', compared: 3, agreement: 2 / 3 });
    expect(per.b).toEqual({ annotator: 'b', compared: 3, agreement: 2 / 3 });
    expect(per.a).toEqual({ annotator: 'a', compared: 2, agreement: 1 });
  });

  it('summary carries alpha, Fleiss (equal labels per item) and pairwise Cohen', () => {
    const s = agreementSummary(three, { level: 'nominal' });
    expect(s).toMatchObject({ items: 4, annotators: 3, ratings: 12 });
    expect(s.fleiss!.ratersPerItem).toBe(3);
    // Fleiss from first principles: P-bar = (1/3 + 1 + 1/3 + 1)/4 = 2/3; p = 7/12 pass, 5/12 fail
    const pe = (7 / 12) ** 2 + (5 / 12) ** 2;
    expect(s.fleiss!.kappa!).toBeCloseTo((2 / 3 - pe) / (1 - pe), 12);
    expect(s.pairs.map((p) => p.annotators)).toEqual([
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'c'],
    ]);
    expect(s.pairs[0]!.rawAgreement).toBe(0.75);
    const uneven = agreementSummary(three.slice(1), { level: 'nominal' });
    expect(uneven.fleiss).toBeNull();
    expect(uneven.fleissSkipped).toMatch(/same number/);
  });
});
