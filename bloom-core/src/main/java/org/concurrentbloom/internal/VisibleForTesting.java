package org.concurrentbloom.internal;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * <b>Internal.</b> Marks a member that exists for tests (a shape no builder produces, the words behind a
 * filter, a hook that disables a safety mechanism to prove the tests notice): production code must not
 * call it, and it is not API. Members so marked are package-private; the annotation is public only so
 * that every module of the library can use it.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD})
public @interface VisibleForTesting {}
