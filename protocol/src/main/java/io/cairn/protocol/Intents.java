package io.cairn.protocol;

/** Lookup shared by the intent enums. */
final class Intents {
  private Intents() {}

  /** The intent with {@code code}, or {@code null}. Intent enums are tiny, so a scan is enough. */
  static <T extends Intent> T find(T[] intents, short code) {
    for (T intent : intents) {
      if (intent.code() == code) {
        return intent;
      }
    }
    return null;
  }
}
