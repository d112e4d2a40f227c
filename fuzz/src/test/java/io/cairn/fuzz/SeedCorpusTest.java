package io.cairn.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The committed seeds are what today's encoders write, so a format change cannot leave the fuzz
 * tests starting from inputs the code no longer reads. After changing a format, rewrite them with
 * {@code mvn -pl fuzz test -Dtest=SeedCorpusTest -Dcairn.fuzz.writeSeeds=true} and commit them.
 */
class SeedCorpusTest {

  private static final Path RESOURCES = Path.of("src/test/resources");

  @Test
  void committedSeedsAreWhatTheEncodersWriteToday() throws IOException {
    boolean rewrite = Boolean.getBoolean("cairn.fuzz.writeSeeds");
    List<Path> stale = new ArrayList<>();
    for (Map.Entry<Path, byte[]> seed : SeedCorpus.seeds().entrySet()) {
      Path file = RESOURCES.resolve(seed.getKey());
      if (rewrite) {
        Files.createDirectories(file.getParent());
        Files.write(file, seed.getValue());
      } else if (!Files.exists(file) || !Arrays.equals(Files.readAllBytes(file), seed.getValue())) {
        stale.add(seed.getKey());
      }
    }
    assertThat(stale)
        .as(
            "seeds missing or not what the encoders write today; rewrite them with"
                + " -Dcairn.fuzz.writeSeeds=true (see this class) and commit them")
        .isEmpty();
  }
}
