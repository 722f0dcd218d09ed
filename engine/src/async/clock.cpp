// async::Clock (clock.hpp): a persistent vector clock, a 32-way trie of reference-counted nodes.
#include "async/clock.hpp"

#include <algorithm>
#include <unordered_set>

namespace layoutscope::async {

struct Clock::Node {
    uint32_t refs = 1; ///< the clocks and inner nodes that hold it
};

namespace {

using Node = Clock::Node;
constexpr uint32_t kBits = 5; ///< 32 children per inner node, 32 components per leaf
constexpr uint32_t kFan = 1u << kBits;

struct Inner : Node {
    Node* kids[kFan] = {}; ///< null: a subtree of zeros
};
struct Leaf : Node {
    uint32_t v[kFan] = {};
};

Inner* inner(Node* n) {
    return static_cast<Inner*>(n);
}
Leaf* leaf(Node* n) {
    return static_cast<Leaf*>(n);
}

Node* ref(Node* n) {
    if (n) ++n->refs;
    return n;
}

/// Drops one reference to n, a node `level` levels above the leaves, and frees what nothing holds.
void release(Node* n, uint32_t level) {
    if (!n || --n->refs > 0) return;
    if (level == 0) {
        delete leaf(n);
        return;
    }
    for (Node* k : inner(n)->kids) release(k, level - 1);
    delete inner(n);
}

/// A private copy of n (its children shared).
Node* clone(Node* n, uint32_t level) {
    if (level == 0) {
        Leaf* c = new Leaf;
        std::copy(std::begin(leaf(n)->v), std::end(leaf(n)->v), c->v);
        return c;
    }
    Inner* c = new Inner;
    for (uint32_t i = 0; i < kFan; ++i) c->kids[i] = ref(inner(n)->kids[i]);
    return c;
}

/// The inner levels a trie needs to hold unit u.
uint32_t levelsFor(uint32_t u) {
    uint32_t levels = 0;
    while (uint64_t(u) >> (kBits * (levels + 1)) != 0) ++levels;
    return levels;
}

/// max(a, b) of two nodes at one level, as a new reference: a itself where it is the maximum, else b itself
/// where b is, else a new node whose unchanged children are shared.
Node* joinNodes(Node* a, Node* b, uint32_t level) {
    if (a == b || !b) return ref(a);
    if (!a) return ref(b);
    if (level == 0) {
        const uint32_t* va = leaf(a)->v;
        const uint32_t* vb = leaf(b)->v;
        bool aMax = true, bMax = true;
        for (uint32_t i = 0; i < kFan; ++i) {
            aMax = aMax && va[i] >= vb[i];
            bMax = bMax && vb[i] >= va[i];
        }
        if (aMax) return ref(a);
        if (bMax) return ref(b);
        Leaf* c = new Leaf;
        for (uint32_t i = 0; i < kFan; ++i) c->v[i] = std::max(va[i], vb[i]);
        return c;
    }
    Node* r[kFan];
    bool isA = true, isB = true;
    for (uint32_t i = 0; i < kFan; ++i) {
        Node* ka = inner(a)->kids[i];
        Node* kb = inner(b)->kids[i];
        r[i] = joinNodes(ka, kb, level - 1);
        isA = isA && r[i] == ka;
        isB = isB && r[i] == kb;
    }
    if (isA || isB) {
        for (Node* k : r) release(k, level - 1); // still held by a (or b)
        return ref(isA ? a : b);
    }
    Inner* c = new Inner;
    std::copy(std::begin(r), std::end(r), c->kids);
    return c;
}

/// max(a, b) where a is la >= lb levels above the leaves and b lb: b's units are those of a's first child
/// chain (child 0 at each level down to lb).
Node* joinAt(Node* a, uint32_t la, Node* b, uint32_t lb) {
    if (la == lb) return joinNodes(a, b, la);
    Node* first = a ? inner(a)->kids[0] : nullptr;
    Node* r = joinAt(first, la - 1, b, lb);
    if (r == first) {
        release(r, la - 1);
        return ref(a);
    }
    Inner* c = a ? inner(clone(a, la)) : new Inner;
    release(c->kids[0], la - 1);
    c->kids[0] = r;
    return c;
}

void collect(Node* n, uint32_t level, std::unordered_set<const Node*>& seen) {
    if (!n || !seen.insert(n).second) return;
    if (level > 0)
        for (Node* k : inner(n)->kids) collect(k, level - 1, seen);
}

} // namespace

Clock::Clock(const Clock& o) noexcept : m_root(ref(o.m_root)), m_levels(o.m_levels) {}

Clock::Clock(Clock&& o) noexcept : m_root(o.m_root), m_levels(o.m_levels) {
    o.m_root = nullptr;
    o.m_levels = 0;
}

Clock& Clock::operator=(const Clock& o) noexcept {
    Node* r = ref(o.m_root); // first: o may be *this
    release(m_root, m_levels);
    m_root = r;
    m_levels = o.m_levels;
    return *this;
}

Clock& Clock::operator=(Clock&& o) noexcept {
    if (this == &o) return *this;
    release(m_root, m_levels);
    m_root = o.m_root;
    m_levels = o.m_levels;
    o.m_root = nullptr;
    o.m_levels = 0;
    return *this;
}

Clock::~Clock() {
    release(m_root, m_levels);
}

void Clock::clear() {
    release(m_root, m_levels);
    m_root = nullptr;
    m_levels = 0;
}

void Clock::grow(uint32_t levels) {
    for (; m_levels < levels; ++m_levels) {
        if (!m_root) continue;
        Inner* r = new Inner;
        r->kids[0] = m_root; // the old trie holds the first 32^(m_levels + 1) units
        m_root = r;
    }
}

uint32_t Clock::at(uint32_t u) const {
    if (uint64_t(u) >> (kBits * (m_levels + 1)) != 0) return 0;
    Node* n = m_root;
    for (uint32_t level = m_levels; n; --level) {
        if (level == 0) return leaf(n)->v[u & (kFan - 1)];
        n = inner(n)->kids[(u >> (kBits * level)) & (kFan - 1)];
    }
    return 0;
}

void Clock::set(uint32_t u, uint32_t v) {
    if (v == 0 && at(u) == 0) return; // nothing to write: no node to make
    grow(levelsFor(u));
    Node** slot = &m_root;
    for (uint32_t level = m_levels;; --level) {
        Node*& n = *slot;
        if (!n) {
            n = level == 0 ? static_cast<Node*>(new Leaf) : new Inner;
        } else if (n->refs > 1) { // shared with another clock: write a private copy
            Node* c = clone(n, level);
            --n->refs;
            n = c;
        }
        if (level == 0) {
            leaf(n)->v[u & (kFan - 1)] = v;
            return;
        }
        slot = &inner(n)->kids[(u >> (kBits * level)) & (kFan - 1)];
    }
}

void Clock::join(const Clock& b) {
    if (!b.m_root || (b.m_root == m_root && b.m_levels == m_levels)) return;
    grow(b.m_levels);
    Node* r = joinAt(m_root, m_levels, b.m_root, b.m_levels);
    release(m_root, m_levels);
    m_root = r;
}

size_t Clock::distinctNodes(const std::vector<const Clock*>& clocks) {
    std::unordered_set<const Node*> seen;
    for (const Clock* c : clocks) collect(c->m_root, c->m_levels, seen);
    return seen.size();
}

} // namespace layoutscope::async
