package io.cairn.protocol.api;

import io.cairn.protocol.ProtocolException;
import io.cairn.protocol.buffer.Utf8;

/** Bounds of the strings in the API messages. */
final class ApiStrings {
  private ApiStrings() {}

  /**
   * Cuts {@code value} so its UTF-8 form has at most {@code maxBytes} bytes, never inside a
   * surrogate pair; unpaired surrogates become {@code '?'} so the result is always encodable.
   */
  static String truncate(String value, int maxBytes) {
    StringBuilder out = new StringBuilder(Math.min(value.length(), maxBytes));
    int bytes = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      int length;
      String piece;
      if (Character.isHighSurrogate(c)
          && i + 1 < value.length()
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        length = 4;
        piece = value.substring(i, i + 2);
      } else if (Character.isSurrogate(c)) {
        length = 1;
        piece = "?";
      } else {
        length = c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
        piece = String.valueOf(c);
      }
      if (bytes + length > maxBytes) {
        break;
      }
      bytes += length;
      out.append(piece);
      i += piece.length() == 2 ? 1 : 0;
    }
    return out.toString();
  }

  /**
   * Checks that {@code value} is encodable with {@code minBytes..maxBytes} bytes of UTF-8.
   *
   * @throws ProtocolException naming the field, the length and the bounds
   */
  static int checkLength(String value, int minBytes, int maxBytes, String what) {
    int length = Utf8.encodedLength(value, what);
    if (length < minBytes || length > maxBytes) {
      throw new ProtocolException(
          "Expected "
              + what
              + " of "
              + minBytes
              + ".."
              + maxBytes
              + " bytes of UTF-8, but was "
              + length
              + " bytes");
    }
    return length;
  }
}
