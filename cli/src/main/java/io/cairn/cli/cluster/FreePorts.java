package io.cairn.cli.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.SplittableRandom;

/**
 * Finds ports that are free right now on a host, below the Linux ephemeral range (32768+), so that
 * outgoing connections of the cluster's own processes cannot take them first. Another program may
 * still bind one before the cluster does; the cluster then fails to start and its log says which
 * port.
 */
public final class FreePorts {
  private static final int ATTEMPTS = 100;
  private static final int LOW = 20_000;
  private static final int HIGH = 32_000;

  private FreePorts() {}

  /**
   * A base port p such that p..p+count-1 and p+100..p+100+count-1 are free (the layout of {@link
   * ClusterLayout#of}), and two more free ports p+50, p+51 for the gateway's gRPC and HTTP.
   *
   * @param seed picks the candidates
   * @return {base, gatewayPort, gatewayHttpPort}
   * @throws IllegalStateException if none is found after a few attempts
   */
  public static int[] forCluster(String host, int count, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      int base = LOW + random.nextInt(HIGH - LOW - 2 * ClusterLayout.MANAGEMENT_PORT_OFFSET);
      boolean free = isFree(host, base + 50) && isFree(host, base + 51);
      for (int i = 0; i < count && free; i++) {
        free =
            isFree(host, base + i) && isFree(host, base + ClusterLayout.MANAGEMENT_PORT_OFFSET + i);
      }
      if (free) {
        return new int[] {base, base + 50, base + 51};
      }
    }
    throw new IllegalStateException(
        "Expected free ports on "
            + host
            + " in ["
            + LOW
            + ", "
            + HIGH
            + ") for "
            + count
            + " brokers and a gateway, but found none after "
            + ATTEMPTS
            + " attempts");
  }

  /** Whether {@code port} can be bound on {@code host} now. */
  public static boolean isFree(String host, int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(false);
      socket.bind(new InetSocketAddress(InetAddress.getByName(host), port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
