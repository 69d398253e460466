package hexside.vassal;

import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics;
import java.awt.Graphics2D;
import java.awt.Point;
import java.awt.event.MouseEvent;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import javax.swing.SwingUtilities;

import VASSAL.build.GameModule;
import VASSAL.build.module.Map;
import VASSAL.build.module.map.LOS_Thread;
import VASSAL.build.module.map.boardPicker.Board;
import VASSAL.build.module.map.boardPicker.board.MapGrid;
import VASSAL.build.module.map.boardPicker.board.ZonedGrid;

/**
 * VASSAL's LOS thread, saying Hexside's answer: drawn from hex to hex, it shows the answer and its reasons beside
 * the line (read from the module's {@link LosTable}) and reports them in the chat when released. The line, the
 * range and everything else are VASSAL's own LOS_Thread's.
 */
public class HexsideLosThread extends LOS_Thread {
  private static final Font FONT = new Font("Dialog", Font.PLAIN, 12);
  private static final int MAX_LINES = 8;
  private static final int MAX_CHARS = 110;
  private LosTable table;
  private String problem;
  private boolean loaded;

  private LosTable table() {
    if (!loaded) {
      loaded = true;
      try (InputStream in = GameModule.getGameModule().getDataArchive().getInputStream(LosTable.FILE)) {
        table = LosTable.read(in);
      }
      catch (IOException | RuntimeException e) {
        problem = "Hexside LOS: the module's LOS table cannot be read (" + e.getMessage() + ")";
      }
    }
    return table;
  }

  /** The hex under a map point, named by the board's own grid numbering (the zones' names left aside). */
  private String hexAt(Point p) {
    final Board b = map.findBoard(p);
    if (b == null) {
      return null;
    }
    MapGrid grid = b.getGrid();
    if (grid instanceof ZonedGrid) {
      grid = ((ZonedGrid) grid).getBackgroundGrid();
    }
    if (grid == null) {
      return null;
    }
    final Point bp = new Point(p);
    bp.translate(-b.bounds().x, -b.bounds().y);
    return grid.locationName(bp);
  }

  /** What the thread says now: the lines of LosTable.describe, or why it cannot. */
  protected List<String> sayings() {
    final List<String> out = new ArrayList<>();
    final LosTable t = table();
    if (t == null) {
      out.add(problem);
      return out;
    }
    final String from = hexAt(anchor);
    final String to = hexAt(arrow);
    if (from == null || to == null) {
      out.add("Hexside LOS: draw the thread from a hex of the map to another");
      return out;
    }
    return t.describe(from, to);
  }

  @Override
  public void draw(Graphics g, Map m) {
    super.draw(g, m);
    if (initializing || !visible || anchor == null || arrow == null || anchor.equals(arrow)) {
      return;
    }
    final Graphics2D g2d = (Graphics2D) g;
    final double scale = g2d.getDeviceConfiguration().getDefaultTransform().getScaleX();
    final Point at = map.mapToDrawing(anchor, scale);
    final List<String> lines = wrap(sayings());
    g.setFont(FONT.deriveFont((float) (FONT.getSize() * scale)));
    final FontMetrics fm = g.getFontMetrics();
    int width = 0;
    for (final String line : lines) {
      width = Math.max(width, fm.stringWidth(line));
    }
    final int lineHeight = fm.getHeight();
    final int x = at.x + 12;
    final int y = at.y + 12;
    g.setColor(new Color(255, 255, 224));
    g.fillRect(x, y, width + 8, lineHeight * lines.size() + 6);
    g.setColor(Color.black);
    g.drawRect(x, y, width + 8, lineHeight * lines.size() + 6);
    for (int i = 0; i < lines.size(); i++) {
      g.drawString(lines.get(i), x + 4, y + 3 + fm.getAscent() + i * lineHeight);
    }
  }

  /** LOS_Thread repaints only the line's and the range's rectangles while dragging; the answer's box too. */
  @Override
  public void mouseDragged(MouseEvent e) {
    super.mouseDragged(e);
    if (visible && !persisting && !mirroring) {
      map.repaint();
    }
  }

  /** The sayings cut to lines a box beside the thread can hold; the chat has them whole. */
  static List<String> wrap(List<String> sayings) {
    final List<String> out = new ArrayList<>();
    for (final String s : sayings) {
      String rest = s;
      while (rest.length() > MAX_CHARS) {
        int cut = rest.lastIndexOf("; ", MAX_CHARS);
        cut = cut > 20 ? cut + 1 : MAX_CHARS;
        out.add(rest.substring(0, cut));
        rest = "    " + rest.substring(cut).trim();
      }
      out.add(rest);
    }
    if (out.size() > MAX_LINES) {
      final int more = out.size() - MAX_LINES + 1;
      final List<String> cut = new ArrayList<>(out.subList(0, MAX_LINES - 1));
      cut.add("    ... " + more + " more lines in the chat");
      return cut;
    }
    return out;
  }

  @Override
  public void mouseReleased(MouseEvent e) {
    final boolean report = SwingUtilities.isLeftMouseButton(e) && !persisting && !mirroring
        && getLosCheckCount() > 0;
    final List<String> said = report ? sayings() : null;
    super.mouseReleased(e);
    if (said != null) {
      for (final String line : said) {
        GameModule.getGameModule().getChatter().send("* LOS " + line.trim());
      }
    }
  }
}
