import type { TargetKind, TestCase } from '../domain/index.js';
import type { InvokeOptions, TargetInvocation, TargetInvoker } from '../ports/index.js';

/**
 * An invoker available at once whose real invoker is built on first use (loading a file, resolving a secret).
 * Once built, `invoke` calls it directly (no extra await). A failed build (TargetConfigurationError) is thrown from
 * `invoke`/`ready` and not kept: the next call tries again.
 */
export class LazyInvoker implements TargetInvoker {
  private built: TargetInvoker | undefined;
  private building: Promise<TargetInvoker> | undefined;

  constructor(
    readonly targetId: string,
    readonly kind: TargetKind,
    private readonly build: () => Promise<TargetInvoker>,
  ) {}

  /** Builds the invoker now (configuration errors surface here) and returns it. */
  ready(): Promise<TargetInvoker> {
    if (this.built) return Promise.resolve(this.built);
    if (!this.building) {
      const building = this.build();
      this.building = building;
      building.then(
        (invoker) => {
          this.built = invoker;
        },
        () => {
          if (this.building === building) this.building = undefined;
        },
      );
    }
    return this.building;
  }

  invoke(testCase: TestCase, options?: InvokeOptions): Promise<TargetInvocation> {
    if (this.built) return this.built.invoke(testCase, options);
    return this.ready().then((invoker) => invoker.invoke(testCase, options));
  }
}
