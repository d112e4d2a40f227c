package io.cairn.backupapi.content;

import java.util.HexFormat;
import java.util.regex.Pattern;

/** How CRC32C values are written in manifests: 8 lowercase hex digits. */
public final class Crc32c {

  private static final Pattern HEX8 = Pattern.compile("[0-9a-f]{8}");

  private Crc32c() {}

  /** Formats an unsigned 32-bit value ({@code 0..2^32-1}). */
  public static String toHex(long crc32c) {
    if (crc32c < 0 || crc32c > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("Expected a CRC32C in 0..4294967295, but was " + crc32c);
    }
    return HexFormat.of().toHexDigits((int) crc32c);
  }

  /**
   * @throws IllegalArgumentException unless {@code hex} is 8 lowercase hex digits
   */
  public static long fromHex(String hex) {
    if (hex == null || !HEX8.matcher(hex).matches()) {
      throw new IllegalArgumentException(
          "Expected a CRC32C of 8 lowercase hex digits, but was '" + hex + "'");
    }
    return Long.parseLong(hex, 16);
  }
}
