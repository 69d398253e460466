/*
 * Compile-time stub of VASSAL 3.7.26's class of this name (vassal-app/src/main/java, tag 3.7.26), holding only
 * the members Hexside's LOS extension uses, with their exact signatures. VASSAL is Copyright (c) 2000-2024 by
 * Rodney Kinney, Joel Uckelman, Brian Reynolds and the VASSAL developers, under the GNU LGPL 2.1 (LICENSE here).
 * Never shipped: in VASSAL the real class is loaded.
 */
package VASSAL.build.module;

import java.awt.Point;
import VASSAL.build.module.map.boardPicker.Board;

public class Map {
  public Board findBoard(Point p) {
    throw new UnsupportedOperationException("stub");
  }

  public Point mapToDrawing(Point p, double osScale) {
    throw new UnsupportedOperationException("stub");
  }

  public void repaint() {
    throw new UnsupportedOperationException("stub");
  }
}
