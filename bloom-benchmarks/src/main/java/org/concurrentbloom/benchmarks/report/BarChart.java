package org.concurrentbloom.benchmarks.report;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * Draws a run as a PNG of grouped bar charts, one panel per {@link Cases#panel}: bars are total
 * throughput in operations per microsecond (all threads together, higher is better), grouped by case,
 * one colour per implementation. Throughput rather than ns/op so that two-thread bars show what the
 * filter delivers, and longer bars mean better in every panel.
 */
final class BarChart {
  private static final int WIDTH = 1600;
  private static final int PANEL_HEIGHT = 560;

  private BarChart() {}

  static void write(List<Result> results, String title, Path png) throws IOException {
    // Rendering needs no display; set before the first AWT class loads, or a server without X fails.
    System.setProperty("java.awt.headless", "true");
    Map<String, List<Result>> panels = new LinkedHashMap<>();
    for (Result r : Cases.inReportOrder(results)) {
      panels.computeIfAbsent(Cases.panel(r), p -> new ArrayList<>()).add(r);
    }
    List<CategoryChart> charts = new ArrayList<>();
    boolean first = true;
    for (Map.Entry<String, List<Result>> panel : panels.entrySet()) {
      charts.add(panel(first ? title + ": " + panel.getKey() : panel.getKey(), panel.getValue()));
      first = false;
    }
    if (charts.isEmpty()) {
      throw new IllegalArgumentException("no results to draw");
    }
    Path parent = png.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    BitmapEncoder.saveBitmap(charts, charts.size(), 1, png.toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  private static CategoryChart panel(String title, List<Result> results) {
    Set<String> categories = new LinkedHashSet<>();
    Map<String, Map<String, Double>> series = new LinkedHashMap<>();
    for (Result r : Cases.inSeriesOrder(results)) {
      categories.add(Cases.category(r));
      series.computeIfAbsent(Cases.series(r), s -> new LinkedHashMap<>())
          .put(Cases.category(r), r.opsPerMicrosecond());
    }
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(PANEL_HEIGHT).title(title)
        .yAxisTitle("million operations per second (ops/µs), all threads").build();
    var style = chart.getStyler();
    style.setLegendPosition(LegendPosition.OutsideE);
    style.setChartBackgroundColor(Color.WHITE);
    style.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
    style.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    style.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    style.setLabelsVisible(true);
    style.setLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    style.setLabelsRotation(90);
    style.setYAxisDecimalPattern("#,##0.#");
    style.setYAxisMin(0.0);
    List<String> xs = new ArrayList<>(categories);
    for (Map.Entry<String, Map<String, Double>> s : series.entrySet()) {
      // Every series gets every category so the groups line up; a case the series lacks (Commons with
      // two threads) is null, which XChart leaves without a bar.
      List<Double> ys = new ArrayList<>();
      for (String x : xs) {
        ys.add(s.getValue().get(x));
      }
      chart.addSeries(s.getKey(), xs, ys);
    }
    return chart;
  }
}
