package io.cairn.backups3;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Recognizes an object whose content is the AWS SDK's {@code aws-chunked} upload body — chunk
 * header ({@code <hex size>[;chunk-signature=...]\r\n}), the data, a closing chunk and checksum
 * trailer — instead of the data: what a server that does not decode {@code Content-Encoding:
 * aws-chunked} stores. Uploads without chunked encoding ({@code legacyMd5: true}) avoid it.
 */
final class AwsChunkedFraming {

  private static final Pattern CHUNK_HEADER = Pattern.compile("^[0-9a-fA-F]{1,16}(;[^\r\n]*)?\r\n");

  private AwsChunkedFraming() {}

  /** Whether {@code stored} is {@code written} wrapped in aws-chunked framing. */
  static boolean wraps(byte[] stored, byte[] written) {
    String text = new String(stored, StandardCharsets.ISO_8859_1);
    String data = new String(written, StandardCharsets.ISO_8859_1);
    return stored.length > written.length
        && CHUNK_HEADER.matcher(text).find()
        && text.contains("\r\n" + data + "\r\n");
  }
}
