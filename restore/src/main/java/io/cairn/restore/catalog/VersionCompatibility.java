package io.cairn.restore.catalog;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a broker of one version may open what a broker of another version backed up. Versions are
 * {@code major.minor.patch} with an optional {@code -qualifier} or {@code +build}:
 *
 * <ul>
 *   <li>the backup's major version must equal the target's (for major 0, the minor too: before 1.0
 *       a minor version may change formats);
 *   <li>the backup must not be newer than the target (major, minor, patch compared as numbers; the
 *       qualifier is ignored), since an older broker cannot know a newer one's formats;
 *   <li>a version that is not of that form is compatible only with the identical string.
 * </ul>
 */
public final class VersionCompatibility {

  private static final Pattern VERSION =
      Pattern.compile("(\\d{1,9})\\.(\\d{1,9})\\.(\\d{1,9})([-+].*)?");

  private VersionCompatibility() {}

  /**
   * @return why a backup taken by {@code backupVersion} cannot be restored for {@code
   *     targetVersion}, or empty if it can
   */
  public static Optional<String> problem(String backupVersion, String targetVersion) {
    if (backupVersion.equals(targetVersion)) {
      return Optional.empty();
    }
    Matcher backup = VERSION.matcher(backupVersion);
    Matcher target = VERSION.matcher(targetVersion);
    if (!backup.matches() || !target.matches()) {
      return Optional.of(
          "the versions are not both major.minor.patch and differ ('"
              + backupVersion
              + "' and '"
              + targetVersion
              + "')");
    }
    int[] b = numbers(backup);
    int[] t = numbers(target);
    if (b[0] != t[0]) {
      return Optional.of("major versions differ (" + backupVersion + " and " + targetVersion + ")");
    }
    if (b[0] == 0 && b[1] != t[1]) {
      return Optional.of(
          "minor versions of a 0.x release differ ("
              + backupVersion
              + " and "
              + targetVersion
              + ")");
    }
    for (int i = 0; i < 3; i++) {
      if (b[i] != t[i]) {
        return b[i] > t[i]
            ? Optional.of(
                "the backup was taken by the newer version "
                    + backupVersion
                    + " than the broker's "
                    + targetVersion)
            : Optional.empty();
      }
    }
    return Optional.empty();
  }

  private static int[] numbers(Matcher matcher) {
    return new int[] {
      Integer.parseInt(matcher.group(1)),
      Integer.parseInt(matcher.group(2)),
      Integer.parseInt(matcher.group(3))
    };
  }
}
