package io.cairn.cli.output;

/** How a command prints its result on stdout. */
public enum OutputFormat {
  /** Aligned, human-readable tables (the default). */
  TABLE,
  /** Exactly one JSON document per command, for scripts. */
  JSON
}
