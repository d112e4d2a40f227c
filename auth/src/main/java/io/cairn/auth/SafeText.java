package io.cairn.auth;

/**
 * Text that came from a request, a token or a file, made fit for a log line or a message: quoted,
 * cut at 100 characters, control characters shown as {@code ?} (so a crafted value cannot forge log
 * lines). Only for values that are never secret: key ids, issuers, algorithm names.
 */
public final class SafeText {

  private static final int MAX_CHARS = 100;

  private SafeText() {}

  /** {@code value} quoted with {@code '}, cut and cleaned. */
  public static String quote(String value) {
    String cut = value.length() <= MAX_CHARS ? value : value.substring(0, MAX_CHARS) + "...";
    StringBuilder printable = new StringBuilder(cut.length() + 2).append('\'');
    cut.codePoints().forEach(c -> printable.appendCodePoint(Character.isISOControl(c) ? '?' : c));
    return printable.append('\'').toString();
  }
}
