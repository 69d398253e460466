/*
 * Compile-time stub of VASSAL 3.7.26's class of this name (vassal-app/src/main/java, tag 3.7.26), holding only
 * the members Hexside's LOS extension uses, with their exact signatures. VASSAL is Copyright (c) 2000-2024 by
 * Rodney Kinney, Joel Uckelman, Brian Reynolds and the VASSAL developers, under the GNU LGPL 2.1 (LICENSE here).
 * Never shipped: in VASSAL the real class is loaded.
 */
package VASSAL.build.module.map.boardPicker.board;

import java.awt.Point;

public class ZonedGrid implements MapGrid {
  @Override
  public String locationName(Point p) {
    throw new UnsupportedOperationException("stub");
  }

  public MapGrid getBackgroundGrid() {
    throw new UnsupportedOperationException("stub");
  }
}
