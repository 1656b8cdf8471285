import { describe, expect, it } from 'vitest';
import { bleuStatistics, computeBleu, corpusBleu, sentenceBleu } from './bleu.js';
import { corpusChrf, sentenceChrf } from './chrf.js';
import { rougeLScore, rougeN, rougeTokens } from './rouge.js';
import { tokenize13a } from './tokenize13a.js';
import { cosineSimilarity } from './cosine.js';

// sacreBLEU's own tests (mjpost/sacrebleu test/test_bleu.py, test_sentence_bleu.py, test_chrf.py)
describe('BLEU (sacreBLEU defaults: 13a, exp smoothing)', () => {
  const refs = [
    ['The dog bit the man.', 'It was not unexpected.', 'The man bit him first.'],
    ['The dog had bit the man.', 'No one was surprised.', 'The man had bitten the dog.'],
  ];
  const hyps = ['The dog bit the man.', "It wasn't surprising.", 'The man had just bitten him.'];

  it('corpus_bleu of the README example is 48.530827', () => {
    expect(corpusBleu(hyps, refs).score).toBeCloseTo(48.530827, 5);
  });

  it('empty hypotheses score 0 (they are not removed)', () => {
    expect(corpusBleu(['', '', ''], refs).score).toBe(0);
  });

  it('sentence_bleu of the Romanian example (issue #98) is 8.493', () => {
    const REF = 'producţia de zahăr brut se exprimă în zahăr alb;';
    const SYS = 'Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;';
    expect(sentenceBleu(SYS, [REF]).score).toBeCloseTo(8.493, 3);
  });

  it('sentence_bleu with no match at all is 0 (issue #141)', () => {
    expect(sentenceBleu('this is a cat', ['okay thanks']).score).toBe(0);
  });

  it('statistics: "am I am a character sequence" vs "I am a symbol string sequence a a" = [4,2,1,0] of [6,5,4,3]', () => {
    const s = bleuStatistics('am I am a character sequence', ['I am a symbol string sequence a a']);
    expect(s.correct).toEqual([4, 2, 1, 0]);
    expect(s.total).toEqual([6, 5, 4, 3]);
  });

  it('compute_bleu([9,7,5,3], [10,8,6,4], 11, 11) = 83.75922397', () => {
    expect(computeBleu({ correct: [9, 7, 5, 3], total: [10, 8, 6, 4], sysLen: 11, refLen: 11 }).score).toBeCloseTo(83.75922397, 6);
  });

  it('13a splits punctuation (not the apostrophe) but keeps decimals and thousands separators', () => {
    expect(tokenize13a("It wasn't $1,234.50 (really)!")).toEqual(['It', "wasn't", '$', '1,234.50', '(', 'really', ')', '!']);
    expect(tokenize13a('a &amp; b')).toEqual(['a', '&', 'b']);
  });
});

describe('chrF', () => {
  it.each([
    [
      'Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.',
      'Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře.',
      39.14078509,
    ],
    [
      'Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.',
      'A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři.',
      31.22557079,
    ],
    [
      'Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.',
      'Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli.',
      57.15704367,
    ],
  ])('sentence chrF2 with eps smoothing: %s -> %f (test_chrf_sentence_level)', (hyp, ref, expected) => {
    expect(sentenceChrf(hyp, ref, { epsSmoothing: true })).toBeCloseTo(expected, 4);
  });

  it.each([
    [['a'], ['a'], 100],
    [[''], ['reference'], 0],
    [['a b c'], ['a b c'], 100],
    [['a b c'], ['abc'], 100],
    [['a', 'b'], ['a', 'c'], 50],
    [['aa'], ['ab'], 25],
  ])('effective-order chrF3 (sacreBLEU default mode) %j vs %j = %f', (hyps, refs, expected) => {
    expect(corpusChrf(hyps, refs, { beta: 3 })).toBeCloseTo(expected, 4);
  });

  it.each([
    [['aa'], ['ab'], 8.3333],
    [['a b c'], ['abc'], 50],
    [
      [' risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists .'],
      ['risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists .'],
      63.36173,
    ],
    [
      [' Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. '],
      ['Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich.'],
      64.1302698,
    ],
  ])('eps-smoothed chrF3 %j vs %j = %f', (hyps, refs, expected) => {
    expect(corpusChrf(hyps, refs, { beta: 3, epsSmoothing: true })).toBeCloseTo(expected, 4);
  });

  it('keeping whitespace (test_chrf_keep_whitespace) = 67.3481606', () => {
    expect(
      corpusChrf(
        ['Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich.'],
        ['Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich.'],
        { beta: 3, includeWhitespace: true },
      ),
    ).toBeCloseTo(67.3481606, 4);
  });
});

// google-research rouge/rouge_scorer_test.py; the two lines are rouge/testdata/target.txt and prediction.txt,
// whose expected values come from ROUGE-1.5.5
describe('ROUGE (rouge-score)', () => {
  const targets = [
    "ZfbCUIUuePaiLVUlCaUXxkpu XPeWing tUHfPMuZ',-Xd Y BrUgVJing M-HV.-DgdDaY.rFDJCRing Ht-LM EKBDXkME,yz'RBr q'wtion wIojNbN wL,b .a-'XdQggyFl jB-RPP'iyOIcUxer tKM L\n",
    "KsJdPByEtAor fE-Qg Dpdbring cw-WeFyu vC MoBL Xdn g wkvcEiGvKtion BDFhrpMtion psing sbKao Q m qiing LMmer HqqLFXe,XPY,J XsurkMer ,ed nB'wH'bWVHjWFEing tQ.saefZwJtKrTlixYpMMsJing UCAPwNHeYVjDing c T BUySKtion gMPfJpwGw p'NvxAoping eu pBwMBKV'I DNxqelhu,PHPxDEq,mtion SN\n",
  ];
  const predictions = [
    "rFDJCRtion Ht-LM EKtDXkME,yz'RBr q'wer wrojNbN wL,b .a-'XdQggyFl jB-RPP'iyOIcUxi\n",
    "n cw-WeFyu vC MoBL Xdn g wkvcEiGvKtion BDFhrpMer pstion sbKao Q m qier LMmed HqqLFXe,XPY,J XsurkMeo ,ed nB'wH'bWVHjWFEer tQ.saefZwJtKrTlixYpMMNJtion UCAPwNHeYVjD\n",
  ];

  it.each([
    [0, 1, 0.40741, 0.6875, 0.51163],
    [1, 1, 0.40476, 0.65385, 0.5],
    [0, 2, 0.30769, 0.53333, 0.39024],
    [1, 2, 0.29268, 0.48, 0.36364],
  ])('line %i ROUGE-%i against ROUGE-1.5.5: R %f P %f F %f', (i, n, r, p, f) => {
    const s = rougeN(targets[i]!, predictions[i]!, n);
    expect(s.recall).toBeCloseTo(r, 5);
    expect(s.precision).toBeCloseTo(p, 5);
    expect(s.fmeasure).toBeCloseTo(f, 5);
  });

  it.each([
    [0, 0.40741, 0.6875, 0.51163],
    [1, 0.40476, 0.65385, 0.5],
  ])('line %i ROUGE-L against ROUGE-1.5.5', (i, r, p, f) => {
    const s = rougeLScore(targets[i]!, predictions[i]!);
    expect(s.recall).toBeCloseTo(r, 5);
    expect(s.precision).toBeCloseTo(p, 5);
    expect(s.fmeasure).toBeCloseTo(f, 5);
  });

  it('the unit cases: rouge1, rouge2, rougeL consecutive and not, empty', () => {
    expect(rougeN('testing one two', 'testing', 1)).toEqual({ precision: 1, recall: 1 / 3, fmeasure: 1 / 2 });
    expect(rougeN('testing one two', 'testing one', 2).fmeasure).toBeCloseTo(2 / 3, 12);
    expect(rougeLScore('testing one two', 'testing two').fmeasure).toBeCloseTo(4 / 5, 12);
    expect(rougeLScore('testing one two', '')).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
    expect(rougeTokens("Hello, World's 2nd!")).toEqual(['hello', 'world', 's', '2nd']);
  });
});

describe('cosineSimilarity', () => {
  it('is 1 for parallel, 0 for orthogonal, -1 for opposite vectors; rejects lengths that differ', () => {
    expect(cosineSimilarity([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 0], [0, 3])).toBe(0);
    expect(cosineSimilarity([1, 1], [-1, -1])).toBeCloseTo(-1, 12);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
    expect(() => cosineSimilarity([1], [1, 2])).toThrow(/lengths differ/);
  });
});
