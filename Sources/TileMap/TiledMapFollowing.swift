import Compositor

// Tiles follow the view by themselves (`FrameStep` moves them to it and takes what arrived).
extension TiledMap: FollowingMap {}
