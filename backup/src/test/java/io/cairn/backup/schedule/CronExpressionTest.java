package io.cairn.backup.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Cron expressions: crontab's field grammar, the next and previous firing across day, month and
 * year ends, crontab's either-day rule, clear refusals, and a seeded comparison with a minute-by-
 * minute scan.
 */
class CronExpressionTest {

  private static final long SEED = 20261203L;
  private static final long SCANNED_MILLIS = Duration.ofDays(2).toMillis();

  @Test
  void firesDailyAtTwoUtc() {
    CronExpression cron = CronExpression.parse("0 2 * * *");
    long noon = at("2026-12-03T12:00:00");

    assertThat(cron.previousOrSame(noon)).isEqualTo(at("2026-12-03T02:00:00"));
    assertThat(cron.next(noon)).isEqualTo(at("2026-12-04T02:00:00"));
    assertThat(cron.previousOrSame(at("2026-12-03T02:00:00"))).isEqualTo(at("2026-12-03T02:00:00"));
    assertThat(cron.next(at("2026-12-03T02:00:00"))).isEqualTo(at("2026-12-04T02:00:00"));
    assertThat(cron.shortestGap()).isEqualTo(Duration.ofDays(1));
  }

  @Test
  void readsRangesStepsListsAndSundayAsSevenOrZero() {
    CronExpression weekdays = CronExpression.parse("*/15 9-17 * * 1-5");
    // Saturday 2026-12-05 → Monday 09:00
    assertThat(weekdays.next(at("2026-12-04T17:45:00"))).isEqualTo(at("2026-12-07T09:00:00"));
    assertThat(weekdays.previousOrSame(at("2026-12-06T12:00:00")))
        .isEqualTo(at("2026-12-04T17:45:00"));
    assertThat(weekdays.shortestGap()).isEqualTo(Duration.ofMinutes(15));

    CronExpression sundays = CronExpression.parse("30 4 * * 7");
    assertThat(sundays.next(at("2026-12-03T00:00:00"))).isEqualTo(at("2026-12-06T04:30:00"));
    assertThat(CronExpression.parse("30 4 * * 0").next(at("2026-12-03T00:00:00")))
        .isEqualTo(at("2026-12-06T04:30:00"));
    assertThat(CronExpression.parse("0 0,12 1 1,7 *").next(at("2026-12-03T00:00:00")))
        .isEqualTo(at("2027-01-01T00:00:00"));
  }

  @Test
  void matchesEitherDayWhenBothDayFieldsAreRestricted() {
    // the 1st of the month or any Friday
    CronExpression cron = CronExpression.parse("0 0 1 * 5");
    assertThat(cron.next(at("2026-12-01T00:00:00"))).isEqualTo(at("2026-12-04T00:00:00"));
    assertThat(cron.next(at("2026-12-25T00:00:00"))).isEqualTo(at("2027-01-01T00:00:00"));
  }

  @Test
  void treatsADayFieldStartingWithAStarAsUnrestricted() {
    // every other day of the month that is a Monday (crontab: both must match)
    CronExpression cron = CronExpression.parse("0 2 */2 * 1");
    assertThat(cron.next(at("2026-12-01T00:00:00"))).isEqualTo(at("2026-12-07T02:00:00"));
    assertThat(cron.next(at("2026-12-07T02:00:00"))).isEqualTo(at("2026-12-21T02:00:00"));
  }

  @Test
  void findsLeapDays() {
    CronExpression cron = CronExpression.parse("0 0 29 2 *");
    assertThat(cron.next(at("2026-12-03T00:00:00"))).isEqualTo(at("2028-02-29T00:00:00"));
    assertThat(cron.previousOrSame(at("2026-12-03T00:00:00"))).isEqualTo(at("2024-02-29T00:00:00"));
  }

  @Test
  void refusesWhatIsNotACronExpressionNamingTheField() {
    assertThatThrownBy(() -> CronExpression.parse("0 2 * *"))
        .hasMessageContaining("Expected five fields")
        .hasMessageContaining("has 4");
    assertThatThrownBy(() -> CronExpression.parse("0 24 * * *"))
        .hasMessage("Expected the hour field to hold values in 0..23, but it has '24'");
    assertThatThrownBy(() -> CronExpression.parse("0 2 * JAN *"))
        .hasMessageContaining("month field")
        .hasMessageContaining("'JAN'");
    assertThatThrownBy(() -> CronExpression.parse("0 5-2 * * *"))
        .hasMessageContaining("a range from low to high");
    assertThatThrownBy(() -> CronExpression.parse("*/0 * * * *"))
        .hasMessageContaining("minute field");
    assertThatThrownBy(() -> CronExpression.parse("0 0 31 2 *"))
        .hasMessageContaining("but it never does");
    assertThatThrownBy(() -> CronExpression.parse("0 " + "1,".repeat(100) + "2 * * *"))
        .hasMessageContaining("Expected at most 200 characters");
  }

  /** Random expressions against a scan of every minute: next and previous agree with it. */
  @Test
  void agreesWithAMinuteByMinuteScan() {
    Random random = new Random(SEED);
    int scanned = 0;
    for (int trial = 0; trial < 200; trial++) {
      String text =
          String.join(
              " ",
              field(random, 0, 59),
              field(random, 0, 23),
              field(random, 1, 31),
              field(random, 1, 12),
              field(random, 0, 7));
      CronExpression cron;
      try {
        cron = CronExpression.parse(text);
      } catch (IllegalArgumentException e) {
        continue; // e.g. "0 0 31 2 *" never fires
      }
      long from = at("2026-01-01T00:00:00") + (long) random.nextInt(365 * 24 * 60) * 60_000;
      long next = cron.next(from);
      String what = String.format("trial %d (seed %d): '%s' after %s", trial, SEED, text, from);
      assertThat(next).as(what).isGreaterThan(from);
      assertThat(cron.previousOrSame(next + 59_999)).as(what).isEqualTo(next);
      assertThat(cron.previousOrSame(next - 1)).as(what).isLessThanOrEqualTo(from);
      if (next - from <= SCANNED_MILLIS) {
        assertThat(next).as(what).isEqualTo(scanNext(cron, from));
        scanned++;
      }
    }
    assertThat(scanned).as("trials compared with a scan (seed %d)", SEED).isGreaterThan(40);
  }

  private static String field(Random random, int min, int max) {
    return switch (random.nextInt(5)) {
      case 0 -> "*";
      case 1 -> Integer.toString(min + random.nextInt(max - min + 1));
      case 2 -> {
        int a = min + random.nextInt(max - min + 1);
        yield a + "-" + (a + random.nextInt(max - a + 1));
      }
      case 3 -> "*/" + (1 + random.nextInt(Math.max(1, (max - min) / 2)));
      default ->
          (min + random.nextInt(max - min + 1)) + "," + (min + random.nextInt(max - min + 1));
    };
  }

  /**
   * The first minute after {@code from} at which the expression fires, found by asking of each
   * minute whether the latest firing at or before it is itself.
   */
  private static long scanNext(CronExpression cron, long from) {
    long minute = Math.floorDiv(from, 60_000) * 60_000 + 60_000;
    for (; minute <= from + SCANNED_MILLIS; minute += 60_000) {
      if (cron.previousOrSame(minute) == minute) {
        return minute;
      }
    }
    return Long.MAX_VALUE;
  }

  private static long at(String utc) {
    return LocalDateTime.parse(utc).toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  @Test
  void slotsOfACronScheduleAreItsFirings() {
    BackupSchedule schedule = BackupSchedule.cron(CronExpression.parse("0 2 * * *"));
    long noon = at("2026-12-03T12:00:00");
    assertThat(schedule.slotAt(noon)).isEqualTo(at("2026-12-03T02:00:00"));
    assertThat(schedule.slotAfter(schedule.slotAt(noon))).isEqualTo(at("2026-12-04T02:00:00"));
    assertThat(schedule.interval()).isEqualTo(Duration.ofDays(1));
    assertThat(schedule.distanceToSlot(at("2026-12-04T01:59:00"))).isEqualTo(60_000);
    assertThat(schedule.describe()).isEqualTo("cron '0 2 * * *' (UTC)");
    assertThat(Instant.ofEpochMilli(schedule.slotAt(noon))).hasToString("2026-12-03T02:00:00Z");
  }
}
