package io.cairn.cli;

import io.cairn.cli.output.Printer;
import io.cairn.client.CairnClient;
import io.cairn.client.RetryPolicy;
import io.cairn.units.Durations;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A command that talks to the gateway: validates its options ({@link #validate()}), opens a client
 * of {@code --gateway}, runs, closes the client and returns an {@link ExitCode}. A failed call
 * ({@link io.cairn.client.CairnClientException}) is reported by {@link CairnMain} with the exit
 * code of its error code.
 */
public abstract class ClientCommand implements Callable<Integer> {

  @Spec protected CommandSpec spec;

  @Override
  public final Integer call() {
    validate();
    CairnMain root = root();
    try (CairnClient client = root.connect(root.gateway().toString(), retryPolicy())) {
      return run(client, root.printer());
    }
  }

  /** When the client sends a call answered with RESOURCE_EXHAUSTED again; valid after validate. */
  protected RetryPolicy retryPolicy() {
    return RetryPolicy.defaults();
  }

  /** Checks option values; throw {@link #invalid} for the first violation. */
  protected void validate() {}

  /** Does the work; prints exactly one result through {@code printer}. */
  protected abstract int run(CairnClient client, Printer printer);

  protected final CairnMain root() {
    return root(spec);
  }

  /** The root command of {@code spec}'s command line. */
  public static CairnMain root(CommandSpec spec) {
    return (CairnMain) spec.root().userObject();
  }

  /** A usage error of this command (exit code 2): "Expected &lt;rule&gt;, but &lt;actual&gt;". */
  protected final ParameterException invalid(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** Checks {@code min <= value <= max} of duration option {@code name}. */
  protected final void checkDuration(
      String name, java.time.Duration value, java.time.Duration min, java.time.Duration max) {
    if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
      throw invalid(
          "Expected "
              + name
              + " in ["
              + Durations.formatRounded(min)
              + ", "
              + Durations.formatRounded(max)
              + "], but was "
              + Durations.formatRounded(value));
    }
  }

  /** Checks {@code min <= value <= max} of option {@code name}. */
  protected final void checkRange(String name, long value, long min, long max) {
    if (value < min || value > max) {
      throw invalid("Expected " + name + " in [" + min + ", " + max + "], but was " + value);
    }
  }
}
