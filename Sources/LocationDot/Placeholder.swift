// placeholder so the target builds; DotClock.swift and DotPainter.swift replace it
