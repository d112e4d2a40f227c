package io.cairn.protocol.buffer;

import io.cairn.protocol.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8: decoding rejects malformed input (overlong forms, encoded surrogates, truncated
 * sequences) instead of replacing it, and encoding rejects strings with unpaired surrogates. So
 * every accepted byte sequence has exactly one string and back.
 */
public final class Utf8 {
  private Utf8() {}

  /**
   * The number of bytes of the UTF-8 encoding of {@code value}, without allocating.
   *
   * @param what the field, for the message
   * @throws ProtocolException if {@code value} holds an unpaired surrogate (not encodable)
   */
  public static int encodedLength(String value, String what) {
    int length = 0;
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        length += 1;
      } else if (c < 0x800) {
        length += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < value.length()
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        length += 4;
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new ProtocolException(
            "Expected well-formed text in "
                + what
                + ", but found an unpaired surrogate at index "
                + i);
      } else {
        length += 3;
      }
    }
    return length;
  }

  /**
   * Decodes strict UTF-8.
   *
   * @param what the field, for the message
   * @param offset the buffer offset of the bytes, for the message
   * @throws ProtocolException if the bytes are not well-formed UTF-8
   */
  public static String decode(byte[] bytes, String what, int offset) {
    if (isAscii(bytes)) {
      return new String(bytes, StandardCharsets.US_ASCII);
    }
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    // UTF-8 never yields more chars than bytes, so one pass fills this buffer without overflow.
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (!result.isError()) {
      result = decoder.flush(out);
    }
    if (result.isOverflow()) {
      throw new IllegalStateException("Expected at most one char per byte of UTF-8 in " + what);
    }
    if (result.isError()) {
      throw new ProtocolException(
          "Expected valid UTF-8 in "
              + what
              + ", but found a malformed sequence at offset "
              + (offset + in.position()));
    }
    return out.flip().toString();
  }

  private static boolean isAscii(byte[] bytes) {
    for (byte b : bytes) {
      if (b < 0) {
        return false;
      }
    }
    return true;
  }
}
