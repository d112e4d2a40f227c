package io.cairn.backupapi.archive;

import io.cairn.backupapi.content.Crc32c;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * How the archive stores its small objects (links, restore points): UTF-8 JSON an operator can
 * read, then a last line {@code #crc32c=<8 hex digits>} over the JSON bytes, so a changed object is
 * refused even when it stays valid JSON.
 */
final class ChecksummedJson {

  private static final String TRAILER = "\n#crc32c=";

  private ChecksummedJson() {}

  static byte[] seal(byte[] json) {
    byte[] trailer =
        (TRAILER + Crc32c.toHex(crc32c(json)) + "\n").getBytes(StandardCharsets.US_ASCII);
    byte[] stored = new byte[json.length + trailer.length];
    System.arraycopy(json, 0, stored, 0, json.length);
    System.arraycopy(trailer, 0, stored, json.length, trailer.length);
    return stored;
  }

  /**
   * The JSON of a sealed object, checked against its last line.
   *
   * @param what the kind of object and where it is, for messages ("archive link partition-1/...")
   * @throws ArchiveException if it has no valid last line or the JSON does not match it
   */
  static byte[] open(byte[] stored, int maxBytes, String what) {
    if (stored.length > maxBytes) {
      throw invalid(what, "at most " + maxBytes + " bytes", stored.length + " bytes");
    }
    String text = new String(stored, StandardCharsets.UTF_8);
    int trailerAt = text.lastIndexOf(TRAILER);
    if (trailerAt < 0 || !text.endsWith("\n")) {
      throw invalid(what, "a last line '#crc32c=<8 hex digits>'", "it has none");
    }
    byte[] json = text.substring(0, trailerAt).getBytes(StandardCharsets.UTF_8);
    String recorded = text.substring(trailerAt + TRAILER.length(), text.length() - 1);
    long expected;
    try {
      expected = Crc32c.fromHex(recorded);
    } catch (IllegalArgumentException e) {
      throw invalid(what, "a last line '#crc32c=<8 hex digits>'", "it reads '" + recorded + "'");
    }
    long actual = crc32c(json);
    if (expected != actual) {
      throw invalid(
          what,
          "its content to have the CRC32C " + recorded + " of its last line",
          "it has " + Crc32c.toHex(actual) + ": it was changed");
    }
    return json;
  }

  static long crc32c(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length);
    return crc.getValue();
  }

  static ArchiveException invalid(String what, String expected, String actual) {
    return new ArchiveException("Expected " + what + " to have " + expected + ", but " + actual);
  }
}
