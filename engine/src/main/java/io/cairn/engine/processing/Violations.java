package io.cairn.engine.processing;

import java.util.ArrayList;
import java.util.List;

/** Collects every violated field rule of one command, so that one rejection lists them all. */
final class Violations {

  private final List<String> reasons = new ArrayList<>(2);

  /** Adds {@code reason} unless it is null (the rule held). */
  Violations add(String reason) {
    if (reason != null) {
      reasons.add(reason);
    }
    return this;
  }

  boolean any() {
    return !reasons.isEmpty();
  }

  /** The reasons joined by "; ". */
  String reason() {
    return String.join("; ", reasons);
  }
}
