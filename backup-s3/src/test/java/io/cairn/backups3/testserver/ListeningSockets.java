package io.cairn.backups3.testserver;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The TCP sockets a process listens on, read from Linux's {@code /proc/net/tcp} and {@code
 * /proc/net/tcp6} (LISTEN rows) joined with the socket inodes of {@code /proc/<pid>/fd}.
 */
public final class ListeningSockets {

  private static final Pattern SOCKET = Pattern.compile("socket:\\[(\\d+)]");
  private static final String LISTEN = "0A";

  private ListeningSockets() {}

  public static boolean available() {
    return Files.isReadable(Path.of("/proc/net/tcp"))
        && Files.isReadable(Path.of("/proc/net/tcp6"));
  }

  /** Every address and port {@code pid} listens on. */
  public static List<InetSocketAddress> of(long pid) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds.toList()) {
        try {
          Matcher m = SOCKET.matcher(Files.readSymbolicLink(fd).toString());
          if (m.matches()) {
            inodes.add(m.group(1));
          }
        } catch (IOException e) {
          // the descriptor was closed meanwhile
        }
      }
    }
    List<InetSocketAddress> listening = new ArrayList<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      List<String> lines = Files.readAllLines(Path.of(table));
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 9 && f[3].equals(LISTEN) && inodes.contains(f[9])) {
          listening.add(decode(f[1]));
        }
      }
    }
    return listening;
  }

  /** "0100007F:1F90" or a 32-digit IPv6 address: 32-bit words in host (little-endian) order. */
  static InetSocketAddress decode(String field) throws IOException {
    String[] parts = field.split(":");
    byte[] raw = HexFormat.of().parseHex(parts[0]);
    byte[] address = new byte[raw.length];
    for (int word = 0; word < raw.length; word += 4) {
      for (int i = 0; i < 4; i++) {
        address[word + i] = raw[word + 3 - i];
      }
    }
    return new InetSocketAddress(InetAddress.getByAddress(address), Integer.parseInt(parts[1], 16));
  }
}
