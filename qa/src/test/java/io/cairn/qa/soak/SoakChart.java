package io.cairn.qa.soak;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;

/** One PNG of every measure over time, a panel each, drawn with the JDK alone (headless). */
final class SoakChart {

  private static final int WIDTH = 900;
  private static final int PANEL_HEIGHT = 170;
  private static final int MARGIN_LEFT = 70;
  private static final int MARGIN_RIGHT = 20;
  private static final int MARGIN_TOP = 28;
  private static final int MARGIN_BOTTOM = 24;

  private SoakChart() {}

  static void write(String title, List<ResourceSample> samples, Path png) throws IOException {
    System.setProperty("java.awt.headless", "true");
    int panels = ResourceSample.MEASURES.size();
    BufferedImage image =
        new BufferedImage(WIDTH, 30 + panels * PANEL_HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, image.getWidth(), image.getHeight());
      g.setColor(Color.BLACK);
      g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
      g.drawString(title, 10, 20);
      for (int measure = 0; measure < panels; measure++) {
        panel(g, samples, measure, 30 + measure * PANEL_HEIGHT);
      }
    } finally {
      g.dispose();
    }
    ImageIO.write(image, "png", png.toFile());
  }

  private static void panel(Graphics2D g, List<ResourceSample> samples, int measure, int top) {
    long maxSeconds = Math.max(1, samples.get(samples.size() - 1).elapsedSeconds());
    long maxValue = 1;
    for (ResourceSample sample : samples) {
      maxValue = Math.max(maxValue, sample.values()[measure]);
    }
    maxValue = maxValue + maxValue / 10 + 1; // headroom above the highest point
    int left = MARGIN_LEFT;
    int right = WIDTH - MARGIN_RIGHT;
    int plotTop = top + MARGIN_TOP;
    int bottom = top + PANEL_HEIGHT - MARGIN_BOTTOM;

    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.setColor(Color.BLACK);
    g.drawString(ResourceSample.MEASURES.get(measure), left, top + 18);
    g.setColor(Color.GRAY);
    g.drawLine(left, bottom, right, bottom);
    g.drawLine(left, plotTop, left, bottom);
    g.drawString(Long.toString(maxValue), 8, plotTop + 10);
    g.drawString("0", 8, bottom);
    g.drawString("0 s", left, bottom + 16);
    g.drawString(maxSeconds + " s", right - 60, bottom + 16);

    g.setColor(new Color(0x1f, 0x77, 0xb4));
    g.setStroke(new BasicStroke(2f));
    int previousX = -1;
    int previousY = -1;
    for (ResourceSample sample : samples) {
      int x = left + (int) ((right - left) * sample.elapsedSeconds() / maxSeconds);
      int y = bottom - (int) ((bottom - plotTop) * sample.values()[measure] / maxValue);
      if (previousX >= 0) {
        g.drawLine(previousX, previousY, x, y);
      }
      previousX = x;
      previousY = y;
    }
  }
}
