package io.cairn.benchmarks.hotpath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ProcCpuSamplerTest {

  // a real line of a JVM (utime 1234, stime 56), fields 1..20 and more
  private static final String JAVA_LINE =
      "4242 (java) S 1 4242 4242 0 -1 4194560 51234 0 12 0 1234 56 0 0 20 0 42 0 1000 "
          + "3000000000 50000 18446744073709551615 1 1 0 0 0 0 0 4096 16796399 0 0 0 17 1 0 0"
          + " 0 0 0";

  @Test
  void shouldAddUtimeAndStime() {
    assertThat(ProcCpuSampler.parseStat(JAVA_LINE)).isEqualTo(1290);
  }

  @Test
  void shouldCountFieldsAfterACommandNameWithSpacesAndParentheses() {
    String line = JAVA_LINE.replace("(java)", "(a (weird) name)");

    assertThat(ProcCpuSampler.parseStat(line)).isEqualTo(1290);
  }

  @Test
  void shouldRejectALineWithoutTheFields() {
    assertThatThrownBy(() -> ProcCpuSampler.parseStat("4242 (java) S 1 2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Expected at least 15 fields");
    assertThatThrownBy(() -> ProcCpuSampler.parseStat("garbage"))
        .hasMessageStartingWith("Expected a /proc/<pid>/stat line with '(comm)'");
  }

  @Test
  void shouldReadThisProcessAndNothingForAMissingOne() {
    OptionalLong self = ProcCpuSampler.read(ProcessHandle.current().pid());

    assertThat(self).isPresent();
    assertThat(self.getAsLong()).isPositive(); // this JVM has loaded classes: CPU was used
    assertThat(ProcCpuSampler.read(Long.MAX_VALUE)).isEmpty();
  }

  @Test
  void shouldGiveEachGroupsSecondsBetweenSamples() {
    ProcCpuSampler sampler =
        new ProcCpuSampler(Map.of("client", List.of(ProcessHandle.current().pid())), 100);

    Map<String, Double> seconds =
        sampler.secondsBetween(
            Map.of("brokers", 100L, "client", 50L), Map.of("brokers", 350L, "client", 50L));

    assertThat(seconds).containsEntry("brokers", 2.5).containsEntry("client", 0.0);
  }
}
