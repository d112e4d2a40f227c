package io.cairn.backup.restore;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

final class DigestCheckTest {

  private static final String ACCOUNTS = "0000000000000000000000000000000a";
  private static final String TRANSFERS = "000000000000000000000000000000f5";
  private static final String TOTAL = "000000000000000000000000000000ff";
  private static final List<FamilyState> RESTORED =
      List.of(
          new FamilyState("accounts", 3, ACCOUNTS),
          new FamilyState("transfers", 2, "000000000000000000000000000000f6"));

  @Test
  void shouldNameTheFamilyWhoseDigestDiffersWhenTheBackupRecordedFamilies() {
    DigestCheck check =
        new DigestCheck(
            2,
            7,
            40,
            TOTAL,
            Optional.of("00000000000000000000000000000100"),
            RESTORED,
            Optional.empty(),
            new TreeMap<>(Map.of("accounts", ACCOUNTS, "transfers", TRANSFERS)));

    assertThat(check.matches()).isFalse();
    assertThat(check.differingFamilies())
        .containsExactly(
            "transfers expected " + TRANSFERS + ", actual 000000000000000000000000000000f6");
    assertThat(check.describe())
        .startsWith("MISMATCH: Expected the restored state to have the backup's digest")
        .contains("Differing families: transfers expected " + TRANSFERS)
        .doesNotContain("accounts expected");
  }

  @Test
  void shouldSayTheRecordedTotalIsAlteredWhenEveryFamilyMatches() {
    DigestCheck check =
        new DigestCheck(
            2,
            7,
            40,
            TOTAL,
            Optional.of("00000000000000000000000000000100"),
            RESTORED,
            Optional.empty(),
            new TreeMap<>(
                Map.of("accounts", ACCOUNTS, "transfers", "000000000000000000000000000000f6")));

    assertThat(check.differingFamilies()).isEmpty();
    assertThat(check.describe()).contains("descriptor was altered");
  }

  @Test
  void shouldSayOnlyTheTotalIsKnownWhenTheBackupRecordedNoFamilies() {
    DigestCheck check =
        new DigestCheck(
            2,
            7,
            40,
            TOTAL,
            Optional.of("00000000000000000000000000000100"),
            RESTORED,
            Optional.empty());

    assertThat(check.differingFamilies()).isEmpty();
    assertThat(check.describe()).contains("records only the total digest");
  }

  @Test
  void shouldNameNoFamilyWhenTheDigestsMatch() {
    DigestCheck check =
        new DigestCheck(
            2,
            7,
            40,
            TOTAL,
            Optional.of(TOTAL),
            List.of(),
            Optional.empty(),
            new TreeMap<>(Map.of("accounts", ACCOUNTS, "transfers", TRANSFERS)));

    assertThat(check.differingFamilies()).isEmpty();
    assertThat(check.describe()).startsWith("State digest " + TOTAL + " reproduced");
  }
}
