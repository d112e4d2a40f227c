package io.cairn.backups3.testserver;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** HTTP/1.1 framing for {@link FaultInjectingProxy}: message heads and bodies. */
final class HttpFraming {

  private static final int HEAD_MAX_BYTES = 64 * 1024;

  private HttpFraming() {}

  /** A request or response head: start line and headers. */
  record Head(String startLine, List<String[]> headers) {

    static Head read(InputStream in) throws IOException {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      int last4 = 0;
      while (last4 != 0x0d0a0d0a) {
        int b = in.read();
        if (b < 0) {
          if (bytes.size() == 0) {
            return null;
          }
          throw new IOException("Connection ended inside an HTTP head");
        }
        bytes.write(b);
        last4 = (last4 << 8) | b;
        if (bytes.size() > HEAD_MAX_BYTES) {
          throw new IOException("HTTP head longer than " + HEAD_MAX_BYTES);
        }
      }
      String[] lines = bytes.toString(StandardCharsets.ISO_8859_1).split("\r\n");
      List<String[]> headers = new ArrayList<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        if (colon > 0) {
          headers.add(
              new String[] {
                lines[i].substring(0, colon).trim(), lines[i].substring(colon + 1).trim()
              });
        }
      }
      return new Head(lines[0], headers);
    }

    String header(String name) {
      for (String[] h : headers) {
        if (h[0].equalsIgnoreCase(name)) {
          return h[1];
        }
      }
      return null;
    }

    String method() {
      return startLine.split(" ", 3)[0];
    }

    Map<String, String> headerValues() {
      Map<String, String> values = new java.util.HashMap<>();
      headers.forEach(h -> values.put(h[0].toLowerCase(Locale.ROOT), h[1]));
      return Map.copyOf(values);
    }

    String target() {
      String[] parts = startLine.split(" ", 3);
      return parts.length > 1 ? parts[1] : "";
    }

    int status() {
      String[] parts = startLine.split(" ", 3);
      try {
        return parts.length > 1 ? Integer.parseInt(parts[1]) : -1;
      } catch (NumberFormatException e) {
        return -1;
      }
    }

    long contentLength() {
      String value = header("Content-Length");
      return value == null ? (chunked() ? -1 : 0) : Long.parseLong(value);
    }

    boolean hasLength() {
      return header("Content-Length") != null || chunked();
    }

    boolean chunked() {
      String value = header("Transfer-Encoding");
      return value != null && value.toLowerCase(Locale.ROOT).contains("chunked");
    }

    boolean expectsContinue() {
      String value = header("Expect");
      return value != null && value.equalsIgnoreCase("100-continue");
    }

    boolean closes() {
      String value = header("Connection");
      return value != null && value.equalsIgnoreCase("close");
    }

    byte[] bytes(Set<String> stripped) {
      StringBuilder text = new StringBuilder(startLine).append("\r\n");
      for (String[] h : headers) {
        if (!stripped.contains(h[0].toLowerCase(Locale.ROOT))) {
          text.append(h[0]).append(": ").append(h[1]).append("\r\n");
        }
      }
      return text.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }
  }

  /** Copies a message body framed by its head. */
  static final class Body {

    /** Copies at most {@code limit} bytes of the body (the whole body when it is shorter). */
    static void relay(Head head, InputStream in, OutputStream out, long limit) throws IOException {
      if (head.chunked()) {
        relayChunked(in, out, limit);
      } else if (head.header("Content-Length") != null) {
        copy(in, out, Math.min(limit, head.contentLength()));
      } else if (head.startLine().startsWith("HTTP/")) {
        copy(in, out, limit); // until the server closes
      }
    }

    private static void relayChunked(InputStream in, OutputStream out, long limit)
        throws IOException {
      long copied = 0;
      while (true) {
        String sizeLine = line(in);
        out.write((sizeLine + "\r\n").getBytes(StandardCharsets.US_ASCII));
        int semicolon = sizeLine.indexOf(';');
        long size =
            Long.parseLong(
                (semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
        if (size == 0) {
          String trailer;
          do {
            trailer = line(in);
            out.write((trailer + "\r\n").getBytes(StandardCharsets.US_ASCII));
          } while (!trailer.isEmpty());
          return;
        }
        long take = Math.min(size, limit - copied);
        copy(in, out, take);
        copied += take;
        if (take < size) {
          return;
        }
        copy(in, out, 2); // CRLF after the chunk
      }
    }

    private static String line(InputStream in) throws IOException {
      StringBuilder text = new StringBuilder();
      int b;
      while ((b = in.read()) >= 0) {
        if (b == '\n') {
          int length = text.length();
          return length > 0 && text.charAt(length - 1) == '\r'
              ? text.substring(0, length - 1)
              : text.toString();
        }
        text.append((char) b);
        if (text.length() > HEAD_MAX_BYTES) {
          throw new IOException("Chunk line longer than " + HEAD_MAX_BYTES);
        }
      }
      throw new IOException("Connection ended inside a chunked body");
    }

    private static void copy(InputStream in, OutputStream out, long bytes) throws IOException {
      byte[] buffer = new byte[64 * 1024];
      long left = bytes;
      while (left > 0) {
        int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
        if (n < 0) {
          if (bytes == Long.MAX_VALUE) {
            return;
          }
          throw new IOException("Connection ended " + left + " bytes before the body's end");
        }
        out.write(buffer, 0, n);
        left -= n;
      }
    }
  }
}
