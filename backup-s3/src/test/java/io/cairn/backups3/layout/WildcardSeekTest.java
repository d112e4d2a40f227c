package io.cairn.backups3.layout;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.backupapi.BackupIdentifier;
import io.cairn.backupapi.BackupIdentifierWildcard;
import io.cairn.backupapi.CheckpointPattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WildcardSeekTest {

  private static final long SEED = Long.getLong("cairn.seed", 20251129L);

  @Test
  void shouldFindTheSmallestMatchingCheckpointOfAPrefix() {
    CheckpointPattern p12 = CheckpointPattern.prefix("12");

    assertThat(WildcardSeek.checkpointAtOrAfter(p12, 1)).hasValue(12);
    assertThat(WildcardSeek.checkpointAtOrAfter(p12, 12)).hasValue(12);
    assertThat(WildcardSeek.checkpointAtOrAfter(p12, 13)).hasValue(120);
    assertThat(WildcardSeek.checkpointAtOrAfter(p12, 125)).hasValue(125);
    assertThat(WildcardSeek.checkpointAtOrAfter(p12, 130)).hasValue(1200);
    assertThat(WildcardSeek.checkpointAtOrAfter(CheckpointPattern.prefix("9"), Long.MAX_VALUE))
        .hasValue(Long.MAX_VALUE);
    assertThat(
            WildcardSeek.checkpointAtOrAfter(
                CheckpointPattern.prefix("92"), 1_000_000_000_000_000_000L))
        .hasValue(9_200_000_000_000_000_000L);
    assertThat(WildcardSeek.checkpointAtOrAfter(CheckpointPattern.prefix("95"), Long.MAX_VALUE))
        .isEqualTo(OptionalLong.empty());
    assertThat(WildcardSeek.checkpointAtOrAfter(CheckpointPattern.exact(7), 8)).isEmpty();
    assertThat(WildcardSeek.checkpointAtOrAfter(CheckpointPattern.any(), 8)).hasValue(8);
  }

  /** Compares the seek with a brute-force scan over a small id space, for random wildcards. */
  @Test
  void shouldAgreeWithBruteForceOnRandomWildcards() {
    var random = new Random(SEED);
    List<BackupIdentifier> space = new ArrayList<>();
    for (int partition = 1; partition <= 4; partition++) {
      for (long checkpoint = 1; checkpoint <= 130; checkpoint++) {
        for (int node = 0; node <= 2; node++) {
          space.add(new BackupIdentifier(node, partition, checkpoint));
        }
      }
    }
    for (int round = 0; round < 300; round++) {
      BackupIdentifierWildcard wildcard = randomWildcard(random);
      var seek = new WildcardSeek(wildcard);
      BackupIdentifier from = space.get(random.nextInt(space.size()));
      Optional<BackupIdentifier> actual = seek.atOrAfter(from);

      String context = "seed " + SEED + " round " + round + ": " + wildcard + " from " + from;
      actual.ifPresent(
          found -> {
            assertThat(found).as(context).isGreaterThanOrEqualTo(from);
            assertThat(wildcard.matches(found)).as(context).isTrue();
          });
      assertThat(
              space.stream()
                  .filter(
                      id ->
                          id.compareTo(from) >= 0
                              && wildcard.matches(id)
                              && actual.map(found -> id.compareTo(found) < 0).orElse(true))
                  .findFirst())
          .as("a match the seek skipped; " + context)
          .isEmpty();
    }
  }

  @Test
  void shouldOrderKeysLikeIdentifiers() {
    var layout = new S3ObjectLayout("b", "base");
    var random = new Random(SEED);
    for (int round = 0; round < 500; round++) {
      BackupIdentifier a = randomId(random);
      BackupIdentifier b = randomId(random);

      int byKey = Integer.signum(layout.manifestKey(a).compareTo(layout.manifestKey(b)));
      int bySeek = Integer.signum(layout.seekKey(a).compareTo(layout.manifestKey(b)));

      assertThat(byKey)
          .as("seed %d: %s vs %s", SEED, a, b)
          .isEqualTo(Integer.signum(a.compareTo(b)));
      if (a.equals(b)) {
        assertThat(bySeek).as("the seek key sorts just before its manifest").isEqualTo(-1);
      }
      assertThat(layout.parseManifestKey(layout.manifestKey(a))).contains(a);
    }
    assertThat(layout.parseManifestKey("base/manifests/0000000001/x.json")).isEmpty();
    assertThat(
            layout.parseManifestKey("base/contents/0000000001/0000000000000000001/0000000000.json"))
        .isEmpty();
  }

  @Test
  void shouldStepToTheNextIdentifier() {
    assertThat(WildcardSeek.successor(new BackupIdentifier(3, 1, 5)))
        .contains(new BackupIdentifier(4, 1, 5));
    assertThat(WildcardSeek.successor(new BackupIdentifier(Integer.MAX_VALUE, 1, 5)))
        .contains(new BackupIdentifier(0, 1, 6));
    assertThat(WildcardSeek.successor(new BackupIdentifier(Integer.MAX_VALUE, 2, Long.MAX_VALUE)))
        .contains(new BackupIdentifier(0, 3, 1));
  }

  private static BackupIdentifier randomId(Random random) {
    return new BackupIdentifier(
        random.nextInt(3) == 0 ? random.nextInt(Integer.MAX_VALUE) : random.nextInt(12),
        1 + random.nextInt(random.nextBoolean() ? 12 : Integer.MAX_VALUE - 1),
        1 + (random.nextBoolean() ? random.nextInt(200) : random.nextLong(Long.MAX_VALUE - 1)));
  }

  private static BackupIdentifierWildcard randomWildcard(Random random) {
    var wildcard = BackupIdentifierWildcard.all();
    if (random.nextBoolean()) {
      wildcard = wildcard.withPartition(1 + random.nextInt(4));
    }
    if (random.nextBoolean()) {
      wildcard = wildcard.withNode(random.nextInt(3));
    }
    return switch (random.nextInt(3)) {
      case 0 -> wildcard;
      case 1 -> wildcard.withCheckpoints(CheckpointPattern.exact(1 + random.nextInt(130)));
      default ->
          wildcard.withCheckpoints(
              CheckpointPattern.prefix(
                  Integer.toString(1 + random.nextInt(random.nextBoolean() ? 9 : 13))));
    };
  }
}
