package io.cairn.config;

import java.util.Collection;
import java.util.Locale;

/** Finds the known name closest to a misspelt one (edit distance, case-insensitive). */
public final class KeySuggestions {

  private KeySuggestions() {}

  /** The candidate with the smallest edit distance to {@code name}; ties go to the first. */
  public static String closest(String name, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    String lower = name.toLowerCase(Locale.ROOT);
    for (String candidate : candidates) {
      int distance = distance(lower, candidate.toLowerCase(Locale.ROOT));
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** Levenshtein distance. */
  public static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
