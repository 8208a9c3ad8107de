// Resolution through the library models (the JDK's public API, the Kotlin stdlib's), case by case:
// receivers and arguments typed by what a library method returns, library subtyping choosing
// overloads, library type arguments substituted into members and iteration. Caret cases as in
// java-resolution.test.ts (see caret-cases.ts), indexed by the real JVM indexer.
import { describe, expect, it } from 'vitest';
import { caretFailures } from './caret-cases.ts';

async function expectJava(source: string): Promise<void> {
  expect(await caretFailures(source, 'src/main/java/Case.java')).toEqual([]);
}

async function expectKotlin(source: string): Promise<void> {
  expect(await caretFailures(source, 'src/main/kotlin/Case.kt')).toEqual([]);
}

describe('Java: receivers and arguments typed by JDK return values', () => {
  it('chains through getClass(), toCharArray(), Iterator.next(), List.get(i) and getGenericComponentType()', () => expectJava(`
package com.example;

import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Type;
import java.util.Iterator;
import java.util.List;

class Item { void open() {} }

class Printer {
    void show(char c) {}
    void show(String s) {}
    void kind(Type t) {}
    void kind(String s) {}
    void use(Object object, String s, Iterator<Item> iterator, List<Item> list, GenericArrayType type) {
        show(object.getClass().getName());
//      ^ defined: 12
//                             ^ external: java.lang.Class#getName
        for (char c : s.toCharArray()) show(c);
//                                     ^ defined: 11
        iterator.next().open();
//                      ^ defined: 8
        list.get(0).open();
//                  ^ defined: 8
        kind(type.getGenericComponentType());
//      ^ defined: 13
    }
}
`));

  it('picks overloads by the return type of a JDK method', () => expectJava(`
package com.example;

class Printer {
    void print(int number) {}
    void print(String text) {}
    void use(String text) {
        print(text.length());
//      ^ defined: 4
        print(text.substring(1).trim());
//      ^ defined: 5
        print(Math.max(1, 2));
//      ^ defined: 4
    }
}
`));
});

describe('Java: JDK subtyping chooses overloads', () => {
  it('passes a Writer or StringBuilder as an Appendable, a BigDecimal as a Number, a Set as an Iterable', () => expectJava(`
package com.example;

import java.io.StringWriter;
import java.io.Writer;
import java.math.BigDecimal;
import java.util.Set;

class Sink {
    void emit(Appendable out) {}
    void emit(Number n) {}
    void each(Iterable<String> xs) {}
    void each(CharSequence s) {}
    void use(Writer writer, StringBuilder sb, BigDecimal amount, Set<String> names) {
        emit(writer);
//      ^ defined: 9
        emit(sb);
//      ^ defined: 9
        emit(new StringWriter());
//      ^ defined: 9
        emit(amount);
//      ^ defined: 10
        each(names);
//      ^ defined: 11
        each(sb);
//      ^ defined: 12
    }
}
`));
});

describe('Java: JDK type arguments substituted', () => {
  it('types Map values, entries, Optional contents, generic statics and iteration over JDK collections', () => expectJava(`
package com.example;

import java.util.ArrayList;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

class Item { void open() {} }

class Shop {
    void use(Map<String, Item> byName, Optional<Item> maybe, Item item, ArrayList<Item> items) {
        byName.get("a").open();
//                      ^ defined: 8
        for (Map.Entry<String, Item> e : byName.entrySet()) e.getValue().open();
//                                                                       ^ defined: 8
        for (var e : byName.entrySet()) e.getValue().open();
//                                                     ^ defined: 8
        maybe.orElseThrow().open();
//                          ^ defined: 8
        Objects.requireNonNull(item).open();
//                                   ^ defined: 8
        for (var i : items) i.open();
//                            ^ defined: 8
        items.iterator().next().open();
//                              ^ defined: 8
    }
}
`));

  it('inherits members and type arguments from a JDK superclass', () => expectJava(`
package com.example;

import java.util.ArrayList;

class Item { void open() {} }

class Items extends ArrayList<Item> {
    void use(Items more) {
        more.get(0).open();
//                  ^ defined: 5
        for (Item i : more) i.open();
//                            ^ defined: 5
        more.stream();
//           ^ external: java.util.Collection#stream
    }
}
`));
});

describe('Java: lambdas and JDK functional interfaces', () => {
  it('types lambda parameters from the JDK functional interface a library method takes', () => expectJava(`
package com.example;

import java.util.List;
import java.util.Map;

class Item { void open() {} }

class User {
    void run(List<Item> items, Map<String, Item> byName) {
        items.forEach(item -> item.open());
//                                 ^ defined: 6
        items.stream().filter(i -> i != null).forEach(i -> i.open());
//                                                           ^ defined: 6
        byName.forEach((name, item) -> item.open());
//                                          ^ defined: 6
    }
}
`));

  it('chooses an overload by the arity of the JDK functional interface a lambda implements', () => expectJava(`
package com.example;

import java.util.function.Consumer;

class Item { void open() {} }

class Events {
    void on(Runnable r) {}
    void on(Consumer<Item> c) {}
    void use() {
        on(() -> {});
//      ^ defined: 8
        on(i -> i.open());
//      ^ defined: 9
//                ^ defined: 5
    }
}
`));
});

describe('Kotlin: the stdlib model', () => {
  it('types stdlib extensions, mapped collection members, scope functions and Java getters of JDK types', () => expectKotlin(`
package com.example

import java.io.File

class Item { fun open() {} }

fun use(items: List<Item>, names: Map<String, Item>, file: File, item: Item) {
    items.first().open()
//                ^ defined: 5
    items[0].open()
//           ^ defined: 5
    names.getValue("a").open()
//                      ^ defined: 5
    item.apply { }.open()
//                 ^ defined: 5
    for (i in items) i.open()
//                     ^ defined: 5
    listOf(item).last().open()
//                      ^ defined: 5
    file.name.length
//       ^ external: java.io.File#getName
//            ^ external: kotlin.String.length
}
`));
});
