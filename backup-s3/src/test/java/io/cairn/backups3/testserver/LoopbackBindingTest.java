package io.cairn.backups3.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The test servers listen on the loopback interface only, never on a wildcard address. */
@ExtendWith(LocalS3Servers.class)
class LoopbackBindingTest {

  @ParameterizedTest
  @EnumSource(LocalS3Servers.Kind.class)
  void shouldListenOnLoopbackOnly(LocalS3Servers.Kind kind) throws Exception {
    Assumptions.assumeTrue(ListeningSockets.available(), "needs Linux /proc/net/tcp");
    S3ServerProcess server = LocalS3Servers.get(kind).process();

    List<InetSocketAddress> listening = ListeningSockets.of(server.pid());

    assertThat(listening)
        .as("sockets %s listens on", kind)
        .extracting(InetSocketAddress::getPort)
        .contains(server.port());
    assertThat(listening)
        .as("sockets %s listens on", kind)
        .allSatisfy(
            address -> {
              assertThat(address.getAddress().isAnyLocalAddress())
                  .as("%s is a wildcard", address)
                  .isFalse();
              assertThat(address.getAddress().isLoopbackAddress())
                  .as("%s is loopback", address)
                  .isTrue();
            });
  }

  @Test
  void shouldDecodeProcAddresses() throws Exception {
    assertThat(ListeningSockets.decode("0100007F:1F90"))
        .isEqualTo(new InetSocketAddress("127.0.0.1", 8080));
    assertThat(
            ListeningSockets.decode("0000000000000000FFFF00000100007F:1F90")
                .getAddress()
                .isLoopbackAddress())
        .isTrue();
    assertThat(
            ListeningSockets.decode("00000000000000000000000000000000:1F90")
                .getAddress()
                .isAnyLocalAddress())
        .isTrue();
    assertThat(ListeningSockets.decode("00000000:0050").getAddress().isAnyLocalAddress()).isTrue();
  }
}
