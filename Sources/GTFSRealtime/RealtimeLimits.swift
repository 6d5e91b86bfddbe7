/// Bounds on what one message may make the reader build, so that a hostile or broken feed costs
/// a bounded amount of memory: two input bytes can otherwise stand for a whole empty entity.
/// The defaults hold the largest real feeds (tens of thousands of entities, a few hundred thousand
/// stop time updates) with room to spare; a message at its limits makes about 200 MB of model
/// (1M items of at most 136 bytes, 100,000 entities of 504 on 64-bit) beside its strings.
public struct RealtimeLimits: Sendable {
    /// Entities kept from one message; past it the message is refused.
    public var entities: Int
    /// Items of one list (stop time updates, informed entities, periods, translations); past it
    /// the entity holding the list is skipped.
    public var itemsPerList: Int
    /// Items of every list in the whole message; past it the message is refused.
    public var items: Int

    public init(entities: Int = 100_000, itemsPerList: Int = 4_096, items: Int = 1_000_000) {
        self.entities = entities
        self.itemsPerList = itemsPerList
        self.items = items
    }
}
