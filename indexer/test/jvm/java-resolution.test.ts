// Java resolution, case by case: real source files with caret assertions under the code (see
// caret-cases.ts), indexed by the real JVM indexer. Known gaps are parked with `it.skip`.
import { describe, expect, it } from 'vitest';
import { caretFailures } from './caret-cases.ts';

async function expectCase(source: string): Promise<void> {
  expect(await caretFailures(source, 'src/main/java/Case.java')).toEqual([]);
}

describe('Java: packages and imports', () => {
  it('resolves single-type imports, same-package types and qualified names', () => expectCase(`
// --- src/main/java/com/example/orders/Order.java
package com.example.orders;

public class Order {
//           ^ definition.class; qname: com.example.orders.Order
    public void submit(String id, java.util.List<String> tags, int... counts) {}
//              ^ definition.method; qname: com.example.orders.Order#submit(String, java.util.List, int...)
}
// --- src/main/java/com/example/orders/Audit.java
package com.example.orders;

class Audit {
    Order last;
//  ^ reference.type; defined: src/main/java/com/example/orders/Order.java:3
}
// --- src/main/java/com/example/app/App.java
package com.example.app;

import com.example.orders.Order;
//                        ^ reference.import; defined: src/main/java/com/example/orders/Order.java:3

class App {
    com.example.orders.Order first;
//                     ^ reference.type; defined: src/main/java/com/example/orders/Order.java:3
    Order second;
//  ^ defined: src/main/java/com/example/orders/Order.java:3
}
`));

  it('resolves on-demand imports and keeps JDK types as external symbols', () => expectCase(`
// --- src/main/java/com/example/model/Item.java
package com.example.model;

public class Item {}
// --- src/main/java/com/example/app/Cart.java
package com.example.app;

import com.example.model.*;
import java.util.List;

class Cart {
    List<Item> items;
//  ^ reference.type; external: java.util.List
//       ^ defined: src/main/java/com/example/model/Item.java:3
    String name;
//  ^ external: java.lang.String
    void add(Item item) {
        items.add(item);
//            ^ reference.call; external: java.util.List#add
    }
}
`));

  it('places a name among several JDK wildcard imports by the package that declares it, and never guesses past an unknown one', () => expectCase(`
// --- src/main/java/com/example/app/Cache.java
package com.example.app;

import java.util.*;
import java.util.concurrent.*;

class Cache {
    Map<String, List<String>> entries = new ConcurrentHashMap<>();
//  ^ external: java.util.Map
//              ^ external: java.util.List
//                                          ^ reference.new; external: java.util.concurrent.ConcurrentHashMap
}
// --- src/main/java/com/example/app/Other.java
package com.example.app;

import java.util.*;
import org.acme.*;

class Other {
    Map<String, String> names;
//  ^ unresolved
}
`));

  it('resolves static imports, single and on demand', () => expectCase(`
// --- src/main/java/com/example/util/Strings.java
package com.example.util;

public final class Strings {
    public static final String EMPTY = "";
    public static String trim(String text) { return text; }
    public static boolean isBlank(String text) { return false; }
}
// --- src/main/java/com/example/app/App.java
package com.example.app;

import static com.example.util.Strings.trim;
//                                     ^ reference.import; defined: src/main/java/com/example/util/Strings.java:5
import static com.example.util.Strings.*;

class App {
    String run(String text) {
        if (isBlank(text)) return EMPTY;
//          ^ reference.call; defined: src/main/java/com/example/util/Strings.java:6
//                                ^ reference.read; defined: src/main/java/com/example/util/Strings.java:4
        return trim(text);
//             ^ defined: src/main/java/com/example/util/Strings.java:5
    }
}
`));
});

describe('Java: classes and scopes', () => {
  it('resolves nested, inner, local and anonymous classes', () => expectCase(`
package com.example;

public class Outer {
    private int count;

    static class Nested {
        static Nested create() { return new Nested(); }
//                                          ^ reference.new; defined: 6
    }

    class Inner {
        int read() { return count; }
//                          ^ reference.read; defined: 4
    }

    Runnable task() {
        class Local {
            void run() { count++; }
//                       ^ reference.write; defined: 4
        }
        Local local = new Local();
//                        ^ defined: 17
        return new Runnable() {
            @Override
            public void run() { local.run(); }
//                      ^ definition.method; overrides: java.lang.Runnable#run
//                                    ^ defined: 18
        };
    }

    Outer.Nested nested() { return Outer.Nested.create(); }
//        ^ defined: 6
//                                              ^ reference.call; defined: 7
}
`));

  it('lets locals and parameters shadow fields, and this reach the field', () => expectCase(`
package com.example;

class Counter {
    private int value;

    void set(int value) {
        this.value = value;
//           ^ reference.write; defined: 4
//                   ^ reference.read; defined: 6
    }

    int twice() {
        int value = this.value * 2;
//                       ^ defined: 4
        return value;
//             ^ defined: 13
    }
}
`));

  it('finds members inherited through extends and implements chains, and super', () => expectCase(`
// --- src/main/java/com/example/Base.java
package com.example;

abstract class Base implements Named {
//             ^ implements: com.example.Named
    protected String label = "base";
    void log(String message) {}
}
// --- src/main/java/com/example/Named.java
package com.example;

interface Named {
    default String name() { return "named"; }
}
// --- src/main/java/com/example/Child.java
package com.example;

class Child extends Base {
//    ^ extends: com.example.Base
    @Override
    void log(String message) {
//       ^ overrides: com.example.Base#log(String)
        super.log(label + name());
//            ^ defined: src/main/java/com/example/Base.java:6
//                ^ defined: src/main/java/com/example/Base.java:5
//                        ^ defined: src/main/java/com/example/Named.java:4
    }
}
`));
});

describe('Java: overloads, constructors, references', () => {
  it('tells overloads apart by arity and by locally known argument types', () => expectCase(`
package com.example;

class Printer {
    void print(int number) {}
    void print(String text) {}
    void print(String text, int times) {}
    void print(Printer other) {}

    void use(String parameter) {
        String local = "x";
        print(42);
//      ^ defined: 4
        print("literal");
//      ^ defined: 5
        print(local, 2);
//      ^ defined: 6
        print(parameter);
//      ^ defined: 5
        print(new Printer());
//      ^ defined: 7
        print(this);
//      ^ defined: 7
        int count = 3;
        print(count);
//      ^ defined: 4
        print(local);
//      ^ defined: 5
        print(field);
//      ^ defined: 7
        print(width);
//      ^ defined: 4
    }

    Printer field;
    int width;
}
`));

  it('decides overloads by argument types, and leaves a call whose known types fit no overload unresolved', () => expectCase(`
// --- src/main/java/com/example/Order.java
package com.example;

public class Order {
    public void discount(int percent) {}
    public void discount(String code) {}
    public void tag(long id) {}
    public void note(String text) {}
    public void ship(Order order) {}
    public String code() { return ""; }
}
// --- src/main/java/com/example/Promotions.java
package com.example;

class Promotions {
    void apply(Order order, Mystery unknown) {
        order.discount(10);
//            ^ defined: src/main/java/com/example/Order.java:4
        order.discount(order.code());
//            ^ defined: src/main/java/com/example/Order.java:5
        Integer boxed = 3;
        order.tag(boxed);
//            ^ defined: src/main/java/com/example/Order.java:6
        order.ship(new Order());
//            ^ defined: src/main/java/com/example/Order.java:8
        order.note(42);
//            ^ unresolved
        order.tag("SPRING");
//            ^ unresolved
        order.ship(this);
//            ^ unresolved
        order.note(unknown.text());
//            ^ defined: src/main/java/com/example/Order.java:7
        order.discount(unknown.text());
//            ^ candidates: src/main/java/com/example/Order.java:4, src/main/java/com/example/Order.java:5
    }
}
`));

  it('passes a lambda to a functional interface where the repository declares java.lang.Object itself (java.base)', () => expectCase(`
// --- src/java/lang/Object.java
package java.lang;

public class Object {
    public final native Class<?> getClass();
    public final native void notify();
    public final void wait() throws InterruptedException {}
    public boolean equals(Object obj) { return this == obj; }
}
// --- src/java/util/function/ToLongFunction.java
package java.util.function;

public interface ToLongFunction<T> {
    long applyAsLong(T value);
}
// --- src/java/util/Sums.java
package java.util;

import java.util.function.ToLongFunction;

class Sums {
    long sum(ToLongFunction<String> f) { return 0; }

    long run() {
        return sum(s -> 1L);
//             ^ defined: 6
    }
}
`));

  it('makes new Foo() a reference to the class and to the constructor it selects', () => expectCase(`
package com.example;

class Money {
    Money(long cents) {}
    Money(long cents, String currency) {}

    static Money zero() {
        return new Money(0, "EUR");
//                 ^ reference.new; defined: 3; defined: 5; calls: com.example.Money#Money(long, String)
    }
}
`));

  it('resolves method references, constructor references and annotations', () => expectCase(`
package com.example;

import java.util.List;
import java.util.function.Function;

@interface Audited {
    String value() default "";
}

@Audited(value = "orders")
//^ reference.decorator; defined: 6
//       ^ defined: 7
class Orders {
    Orders(String id) {}
    static String key(Orders orders) { return ""; }

    void run(List<String> ids) {
        ids.stream().map(Orders::new).map(Orders::key);
//                               ^ reference.new; defined: 14
//                                                ^ defined: 15
    }
}
`));
});

describe('Java: generics, enums, records, interfaces, lambdas', () => {
  it('follows type arguments to members of generic types', () => expectCase(`
// --- src/main/java/com/example/Box.java
package com.example;

class Box<T> {
    T value;
    T get() { return value; }
}
// --- src/main/java/com/example/Item.java
package com.example;

class Item {
    void open() {}
    Box<Item> box;

    void use() {
        box.get().open();
//                ^ defined: src/main/java/com/example/Item.java:4
        box.value.open();
//                ^ defined: src/main/java/com/example/Item.java:4
    }
}
`));

  it('resolves enum constants, their switch labels and enum methods', () => expectCase(`
package com.example;

enum Status {
    NEW, DONE {
        @Override
        String label() { return "done"; }
//             ^ overrides: com.example.Status#label()
    };

    String label() { return "new"; }

    static String describe(Status status) {
        switch (status) {
            case NEW: return Status.NEW.label();
//               ^ defined: 4
//                                  ^ defined: 4
//                                      ^ defined: 10
            default: return status.name();
//                                 ^ external: java.lang.Enum#name
        }
    }
}
`));

  it('reads record components through their accessors', () => expectCase(`
package com.example;

record Money(long cents, String currency) {
    Money plus(Money other) {
        return new Money(cents + other.cents(), currency);
//                       ^ defined: 3
//                                     ^ reference.call; defined: 3
    }
}
`));

  it('resolves default methods and lambda parameters', () => expectCase(`
package com.example;

import java.util.function.Predicate;

interface Check {
    boolean test(String text);
    default Check negate() { return text -> !test(text); }
//                                  ^ definition.parameter
//                                            ^ defined: 6
//                                                 ^ defined: 7
}

class Checks implements Check {
    public boolean test(String text) { return negate().test(text); }
//                 ^ overrides: com.example.Check#test(String)
//                                            ^ defined: 7
}
`));
});

describe('Java: generic methods, bounds and nested overloads (checked against javac 17)', () => {
  it('infers a generic method\'s type arguments from its arguments', () => expectCase(`
// --- src/main/java/com/example/Checks.java
package com.example;

final class Checks {
    static <T> T checkNotNull(T value) { return value; }
    static <T> T[] clone(T[] values) { return values; }
    static <K, V> Pair<K, V> pair(K key, V value) { return new Pair<>(key, value); }
}
// --- src/main/java/com/example/Pair.java
package com.example;

class Pair<K, V> {
    final K key;
    final V value;
    Pair(K key, V value) { this.key = key; this.value = value; }
    V second() { return value; }
}
// --- src/main/java/com/example/Item.java
package com.example;

class Item {
    String simpleName() { return "item"; }
    void open() {}
    void run(Item item, Item[] items, String label) {
        Checks.checkNotNull(item).simpleName();
//                                ^ defined: src/main/java/com/example/Item.java:4
        Checks.clone(items)[0].open();
//                             ^ defined: src/main/java/com/example/Item.java:5
        Checks.pair(label, item).second().open();
//                                        ^ defined: src/main/java/com/example/Item.java:5
        Checks.pair(label, item).key.length();
//                                   ^ external: java.lang.String#length
    }
}
`));

  it('infers the type arguments of generic constructors and of generic methods of generic types', () => expectCase(`
package com.example;

import java.util.List;

class Item { void open() {} }

class Box<T> {
    T value;
    Box(T value) { this.value = value; }
    T get() { return value; }
    static <U> Box<U> of(U value) { return new Box<>(value); }
    <R> Box<R> with(R other) { return new Box<>(other); }
}

class Use {
    static <T> T first(List<T> items) { return items.get(0); }
    void run(Item item, List<Item> items) {
        var box = new Box<Item>(item);
        box.get().open();
//                ^ defined: 5
        new Box<>(item).get().open();
//                            ^ defined: 5
        Box.of(item).get().open();
//                         ^ defined: 5
        Box.of("x").with(item).get().open();
//                                   ^ defined: 5
        first(items).open();
//                   ^ defined: 5
    }
}
`));

  it('types operators for overload choice: numeric promotion, String concatenation, booleans', () => expectCase(`
package com.example;

class Failure extends Exception {
    Failure(String message) {}
    Failure(Throwable cause) {}
    Failure(long code) {}
}

class Printer {
    void print(int value) {}
    void print(long value) {}
    void print(double value) {}
    void print(boolean value) {}
    void print(String value) {}

    void run(int a, long b, float c, char d, byte e, Integer boxed, Object any) throws Failure {
        print(a + b);
//      ^ defined: 11
        print(a * c);
//      ^ defined: 12
        print(d + e);
//      ^ defined: 10
        print(boxed + 1);
//      ^ defined: 10
        print(a > b);
//      ^ defined: 13
        print(any instanceof String && !(a == 1));
//      ^ defined: 13
        print("total " + a);
//      ^ defined: 14
        print(b << 2);
//      ^ defined: 11
        print(-e);
//      ^ defined: 10
        print(a++);
//      ^ defined: 10
        throw new Failure("code " + b);
//                ^ defined: 4
    }
}
`));

  it('boxes, unboxes and widens against the repository\'s own java.lang types (java.base)', () => expectCase(`
// --- java.base/java/lang/Object.java
package java.lang;

public class Object {}
// --- java.base/java/lang/Number.java
package java.lang;

public abstract class Number {}
// --- java.base/java/lang/Integer.java
package java.lang;

public final class Integer extends Number {}
// --- java.base/java/lang/String.java
package java.lang;

public final class String {}
// --- java.base/java/util/Locale.java
package java.util;

public final class Locale {}
// --- java.base/java/util/Formats.java
package java.util;

final class Formats {
    static String format(String pattern, Object... args) { return pattern; }
    static String format(Locale locale, String pattern, Object... args) { return pattern; }
    static void take(long value) {}
    static void take(Object value) {}
    static void copy(Object array) {}
    static void copy(int value) {}
    static void sum(Number value) {}
    static void sum(String value) {}

    void run(int count, Integer boxed, char[] chars) {
        format("%d of %d", count, 2);
//      ^ defined: java.base/java/util/Formats.java:4
        take(boxed);
//      ^ defined: java.base/java/util/Formats.java:7
        copy(chars);
//      ^ defined: java.base/java/util/Formats.java:8
        sum(count);
//      ^ defined: java.base/java/util/Formats.java:10
    }
}
`));

  it('tells overloads apart by the bounds of their type parameters', () => expectCase(`
package com.example;

interface Named { String simpleName(); }
interface Sized { int size(); }

class Item implements Named {
    public String simpleName() { return "item"; }
}

class Bounds {
    static <T extends Named> String describe(T value) { return value.simpleName(); }
//                                                                   ^ defined: 3
    static <T extends Sized> String describe(T value) { return "" + value.size(); }
    void run(Item item, Sized sized) {
        describe(item);
//      ^ defined: 11
        describe(sized);
//      ^ defined: 13
    }
}
`));

  it('chooses the outer of nested primitive overloads by the inner call\'s return type', () => expectCase(`
package com.example;

final class Numbers {
    static int max(int a, int b) { return a; }
    static long max(long a, long b) { return a; }
    static double max(double a, double b) { return a; }
    static void wide(long value) {}
    static void wide(double value) {}
    static void box(Integer value) {}
    static void box(long value) {}

    void run(int a, long b, int c) {
        long widest = max(max(a, b), c);
//                    ^ defined: 5
//                        ^ defined: 5
        int narrow = max(max(a, c), c);
//                   ^ defined: 4
//                       ^ defined: 4
        wide(a);
//      ^ defined: 7
        box(a);
//      ^ defined: 10
    }
}
`));
});

describe('Java: lambdas and method references (checked against javac 17)', () => {
  it('chooses overloads by a lambda\'s arity and types lambda parameters from a repository functional interface', () => expectCase(`
package com.example;

import java.util.ArrayList;
import java.util.List;

interface Action { void run(); }
interface Visitor<T> { void visit(T value); }
interface Merger<T> { T merge(T left, T right); }

class Item {
    void open() {}
    Item next() { return this; }
}

class Bag<T> {
    final List<T> items = new ArrayList<>();
    void each(Visitor<T> visitor) {}
    T fold(T start, Merger<T> merger) { return start; }
    static void later(Action action) {}
    static void later(Visitor<String> visitor) {}
    static void later(Merger<String> merger) {}
}

class User {
    static String shout(String text) { return text; }
    void run(Bag<Item> bag) {
        bag.each(item -> item.open());
//               ^ definition.parameter
//                       ^ reference.read; defined: 27
//                            ^ defined: 11
        bag.each((Item item) -> item.next().open());
//                                          ^ defined: 11
        bag.fold(null, (left, right) -> left.next());
//                                           ^ defined: 12
        Bag.later(() -> {});
//          ^ defined: 19
        Bag.later(text -> text.length());
//          ^ defined: 20
//                             ^ external: java.lang.String#length
        Bag.later((a, b) -> a + b);
//          ^ defined: 21
//                          ^ defined: 40
        Bag.later(User::shout);
//          ^ defined: 20
        Visitor<Item> visitor = item -> item.open();
//                                           ^ defined: 11
    }
}
`));

  it('types lambda parameters in initialisers and nested lambdas, where they shadow fields', () => expectCase(`
package com.example;

interface Visitor<T> { void visit(T value); }
interface Maker<T> { T make(String name); }

class Item {
    String name;
    void open() {}
    static final Visitor<Item> OPENER = item -> item.open();
//                                                   ^ defined: 8
    static final Maker<Item> MAKER = name -> new Item();
    Visitor<Item> named = value -> value.name.length();
//                                       ^ defined: 7
    void each(Visitor<Item> visitor) {}
    void nested(Item other) {
        each(outer -> other.each(inner -> inner.name = outer.name));
//                                        ^ defined: 16
//                                                     ^ defined: 16
//                                                           ^ defined: 7
        each(name -> name.open());
//                   ^ defined: 20
//                        ^ defined: 8
    }
}
`));
});

describe('Java: switch labels, class headers, private members (checked against javac 17)', () => {
  it('resolves a case label on an int constant to the constant', () => expectCase(`
// --- src/main/java/com/example/Codes.java
package com.example;

interface Codes {
    int OK = 200;
}
// --- src/main/java/com/example/Handler.java
package com.example;

import static com.example.Codes.OK;

class Handler {
    static final int MISSING = 404;
    static final String GET = "GET";

    String handle(int code, String method) {
        switch (code) {
            case OK: return "ok";
//               ^ defined: src/main/java/com/example/Codes.java:4
            case MISSING: return "missing";
//               ^ defined: src/main/java/com/example/Handler.java:6
            default: break;
        }
        return switch (method) {
            case GET -> "get";
//               ^ defined: src/main/java/com/example/Handler.java:7
            default -> "other";
        };
    }
}
`));

  it('resolves the names of a class header outside the class\'s own members', () => expectCase(`
// --- src/main/java/com/example/Builder.java
package com.example;

public interface Builder<T> {
    T build();
}
// --- src/main/java/com/example/DiffResult.java
package com.example;

public class DiffResult<T> {}
// --- src/main/java/com/example/diff/DiffBuilder.java
package com.example.diff;

import com.example.Builder;
import com.example.DiffResult;

public class DiffBuilder<T> implements Builder<DiffResult<T>> {
//                                     ^ defined: src/main/java/com/example/Builder.java:3
//                                                        ^ defined: 6
//           ^ implements: com.example.Builder
    public static class Builder {}

    @Override
    public DiffResult<T> build() { return null; }
//                       ^ overrides: com.example.Builder#build()
    Builder nested() { return new Builder(); }
//  ^ defined: 10
}
`));

  it('does not inherit or override a superclass\'s private methods', () => expectCase(`
// --- src/main/java/com/example/Base.java
package com.example;

class Base {
    private void reset() {}
    void clear() { reset(); }
//                 ^ defined: src/main/java/com/example/Base.java:4
}
// --- src/main/java/com/example/Outer.java
package com.example;

class Outer {
    void reset() {}

    class Child extends Base {
        void run() {
            reset();
//          ^ defined: src/main/java/com/example/Outer.java:4
        }
    }

    static class Other extends Base {
        void reset() {}
//           ^ definition.method; overrides: none
    }
}
`));
});

describe('Java: honest confidence', () => {
  it('records a name match on an unknown receiver as candidates only', () => expectCase(`
package com.example;

class A { void close() {} }
class B { void close() {} }

class User {
    void run(java.util.function.Supplier<Object> supplier) {
        ((A) supplier.get()).close();
//                           ^ defined: 3
        unknown().close();
//                ^ candidates: 3, 4
    }
}
`));

  it('leaves a name nothing declares unresolved', () => expectCase(`
package com.example;

class User {
    void run() {
        missing.go();
//              ^ unresolved
    }
}
`));
});

describe('Java: generic methods overridden along a hierarchy', () => {
  it('calls the override of a method with its own type variable in an array (<T> T[] toArray(T[] a)), not both', () => expectCase(`
// --- src/main/java/java/util/Collection.java
package java.util;

public interface Collection<E> {
    Object[] toArray();
    <T> T[] toArray(T[] a);
}
// --- src/main/java/java/util/Set.java
package java.util;

public interface Set<E> extends Collection<E> {
    Object[] toArray();
    <T> T[] toArray(T[] a);
}
// --- src/main/java/demo/Use.java
package demo;

import java.util.Set;

class Use {
    String[] f(Set<String> s) {
        Object[] o = s.toArray();
//                     ^ defined: src/main/java/java/util/Set.java:4
        String[] x = new String[0];
        s.toArray(x);
//        ^ defined: src/main/java/java/util/Set.java:5
        return s.toArray(new String[0]);
//               ^ defined: src/main/java/java/util/Set.java:5
    }
}
`));
});
