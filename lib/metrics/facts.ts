import { distinctNumbers, extractNumbers, findNumbers, type NumberMention } from './numbers.js';
import { contentWords, tokenize } from './tokens.js';

/** A fact is present when at least this fraction of its content words appear in the answer (and all its numbers). */
export const FACT_PRESENT_THRESHOLD = 0.8;

/** The answer, indexed once for all facts. */
export interface AnswerIndex {
  words: ReadonlySet<string>;
  numbers: NumberMention[];
}

export interface FactCheck {
  fact: string;
  present: boolean;
  /** fraction of the fact's content words and numbers found in the answer */
  coverage: number;
  /** the fact's importance, when the case gave one */
  importance?: 'critical' | 'important' | 'minor';
}

/** A light plural fold (`orders` -> `order`, `entries` -> `entry`), applied to facts and answer alike. */
export function foldPlural(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

export function indexAnswer(answer: string, tokens: readonly string[] = tokenize(answer)): AnswerIndex {
  return { words: new Set(tokens.map(foldPlural)), numbers: extractNumbers(answer) };
}

/** A key fact split into what is checked: its content words (plural-folded) and its numbers. */
export interface AnalysedFact {
  fact: string;
  words: string[];
  numbers: NumberMention[];
}

/** Undefined for a fact with nothing to check (only punctuation). */
export function analyseFact(fact: string): AnalysedFact | undefined {
  const tokens = tokenize(fact);
  let words = [...new Set(contentWords(tokens).map(foldPlural))];
  const numbers = distinctNumbers(extractNumbers(fact));
  if (words.length === 0 && numbers.length === 0) {
    // a fact made only of stopwords ("it is"): fall back to all its words
    words = [...new Set(tokens.map(foldPlural))];
    if (words.length === 0) return undefined;
  }
  return { fact, words, numbers };
}

/**
 * Checks one key fact against the answer: case- and punctuation-insensitive word overlap on content words
 * (stopwords dropped), numbers matched by value within 0.01%. Every number of the fact must be found, and at
 * least FACT_PRESENT_THRESHOLD of its words.
 */
export function checkAnalysedFact(fact: AnalysedFact, answer: AnswerIndex): FactCheck {
  const { words, numbers } = fact;
  const wordsFound = words.filter((w) => answer.words.has(w)).length;
  const numbersFound = findNumbers(numbers, answer.numbers).found.length;
  const present = numbersFound === numbers.length && (words.length === 0 || wordsFound / words.length >= FACT_PRESENT_THRESHOLD);
  return { fact: fact.fact, present, coverage: (wordsFound + numbersFound) / (words.length + numbers.length) };
}

/** analyseFact + checkAnalysedFact; undefined for a fact with nothing to check. */
export function checkFact(fact: string, answer: AnswerIndex): FactCheck | undefined {
  const analysed = analyseFact(fact);
  return analysed && checkAnalysedFact(analysed, answer);
}
