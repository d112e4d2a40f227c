package io.cairn.restore.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class VersionCompatibilityTest {

  @Test
  void shouldAcceptTheSameOrAnOlderVersionOfTheSameLine() {
    assertThat(VersionCompatibility.problem("0.1.0-SNAPSHOT", "0.1.0-SNAPSHOT")).isEmpty();
    assertThat(VersionCompatibility.problem("0.1.0", "0.1.3")).isEmpty();
    assertThat(VersionCompatibility.problem("1.2.0", "1.4.1")).isEmpty();
    assertThat(VersionCompatibility.problem("1.2.0-rc1", "1.2.0")).isEmpty();
  }

  @Test
  void shouldRefuseOtherLinesAndNewerVersions() {
    assertThat(VersionCompatibility.problem("1.0.0", "2.0.0"))
        .hasValueSatisfying(p -> assertThat(p).contains("major versions differ"));
    assertThat(VersionCompatibility.problem("0.1.0", "0.2.0"))
        .hasValueSatisfying(p -> assertThat(p).contains("minor versions of a 0.x release differ"));
    assertThat(VersionCompatibility.problem("1.3.0", "1.2.9"))
        .hasValueSatisfying(p -> assertThat(p).contains("newer version 1.3.0"));
    assertThat(VersionCompatibility.problem("dev", "1.0.0"))
        .hasValueSatisfying(p -> assertThat(p).contains("not both major.minor.patch"));
  }
}
