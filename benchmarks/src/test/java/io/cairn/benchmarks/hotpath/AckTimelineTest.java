package io.cairn.benchmarks.hotpath;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AckTimelineTest {

  private static final long MS = 1_000_000;

  @Test
  void shouldGiveTheRateOfTheWholeBucketsInAWindow() {
    AckTimeline timeline = new AckTimeline(1_000 * MS, 2_000 * MS);
    for (int i = 0; i < 10; i++) {
      timeline.acknowledged(1_050 * MS); // bucket 0
    }
    for (int i = 0; i < 30; i++) {
      timeline.acknowledged(1_150 * MS); // bucket 1
    }
    timeline.acknowledged(1_250 * MS); // bucket 2

    // [1100, 1200) ms holds bucket 1 only: 30 in 0.1 s
    assertThat(timeline.ratePerSecond(1_100 * MS, 1_200 * MS)).isEqualTo(300.0);
    // [1000, 1300) ms: 41 in 0.3 s
    assertThat(timeline.ratePerSecond(1_000 * MS, 1_300 * MS))
        .isCloseTo(136.67, org.assertj.core.data.Offset.offset(0.01));
    assertThat(timeline.ratePerSecond(1_200 * MS, 1_200 * MS)).isZero();
  }

  @Test
  void shouldCountAnswersPastTheSpanInTheLastBucket() {
    AckTimeline timeline = new AckTimeline(0, 200 * MS);

    timeline.acknowledged(10_000 * MS);

    assertThat(timeline.ratePerSecond(200 * MS, 300 * MS)).isEqualTo(10.0);
  }
}
