/**
 * <b>Internal, not API.</b> What the library's other modules (bloom-redis, bloom-guard) need from the
 * core beyond its public API: the standard layout's bit indexes for bits kept elsewhere, and a filter's
 * words. Anything here may change or disappear in any release; applications should use
 * {@link org.concurrentbloom.BloomFilter} and its siblings.
 */
package org.concurrentbloom.internal;
