import { PythonSyntaxError, type Token } from './tokenizer.js';

/** Reads a token list left to right; every helper fails with a PythonSyntaxError at the offending token. */
export class TokenCursor {
  private index = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  peek(ahead = 0): Token {
    const tokens = this.tokens;
    return (tokens[this.index + ahead] ?? tokens[tokens.length - 1]) as Token;
  }

  next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index++;
    return token;
  }

  /** Is the next token this punctuation? */
  at(punct: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === 'punct' && token.text === punct;
  }

  /** Consume the punctuation if it is next. */
  accept(punct: string): boolean {
    if (!this.at(punct)) return false;
    this.index++;
    return true;
  }

  expect(punct: string, context: string): Token {
    if (!this.at(punct)) throw this.error(`expected '${punct}' ${context}, found ${show(this.peek())}`);
    return this.next();
  }

  error(message: string, token: Token = this.peek()): PythonSyntaxError {
    return new PythonSyntaxError(message, token.start);
  }
}

/** A token as messages show it: `'='`, `name foo`, `the end of the text`. */
export function show(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'the end of the text';
    case 'punct':
      return `'${token.text}'`;
    default:
      return `${token.kind} ${token.text.length > 30 ? `${token.text.slice(0, 30)}…` : token.text}`;
  }
}
