package io.cairn.broker.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.config.ConfigKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's key table is the operator's reference: it must list every key as it is. */
final class ConfigReadmeTest {

  @Test
  void shouldListEveryKeyWithItsDefaultAndEnvironmentVariableInTheReadme() throws IOException {
    String readme = Files.readString(Path.of("README.md"));
    for (ConfigKey<?> key : BrokerConfigKeys.allWithS3()) {
      assertThat(readme)
          .as("README row of %s", key.path())
          .contains("| `" + key.path() + "` |")
          .contains("`" + key.envName() + "`");
      if (key.defaultValue() != null) {
        assertThat(readme)
            .as("README default of %s", key.path())
            .contains("| `" + key.path() + "` | `" + key.defaultValue() + "` |");
      }
    }
  }
}
