// Maven and Gradle modules read from build files, and the visibility order they give to classes
// that several modules declare under one qualified name.
import { describe, expect, it } from 'vitest';
import { BuildLayout } from '../../src/jvm/build-layout.ts';

const layout = BuildLayout.detect(new Map([
  ['settings.gradle.kts', 'rootProject.name = "shop"\ninclude(":core", ":app")\ninclude(":tools:lint")\n'],
  ['app/build.gradle.kts', 'dependencies {\n    implementation(project(":core"))\n}\n'],
  ['core/build.gradle', 'apply plugin: "java"\n'],
  ['legacy/pom.xml', '<project><parent><artifactId>parent</artifactId></parent><artifactId>legacy</artifactId>'
    + '<dependencies><dependency><groupId>x</groupId><artifactId>core-api</artifactId></dependency></dependencies></project>'],
  ['core-api/pom.xml', '<project><artifactId>core-api</artifactId></project>'],
]));

describe('BuildLayout', () => {
  it('finds Gradle projects from settings and build files, Maven modules from pom.xml', () => {
    expect(layout.modules.map((m) => `${m.tool} ${m.name} ${m.dir || '.'}`)).toEqual([
      'gradle : .', 'gradle :app app', 'gradle :core core', 'maven core-api core-api', 'maven legacy legacy', 'gradle :tools:lint tools/lint',
    ]);
    expect(layout.describe()).toBe('6 gradle and maven modules: :, :app, :core, core-api, legacy, :tools:lint');
  });

  it('reads project and artifact dependencies', () => {
    expect([...layout.modules.find((m) => m.dir === 'app')!.deps]).toEqual(['core']);
    expect([...layout.modules.find((m) => m.dir === 'legacy')!.deps]).toEqual(['core-api']);
  });

  it('places a file in its innermost module', () => {
    expect(layout.moduleOf('app/src/main/kotlin/App.kt')).toBe('app');
    expect(layout.moduleOf('tools/lint/src/main/java/Lint.java')).toBe('tools/lint');
    expect(layout.moduleOf('buildSrc/Plugin.kt')).toBe('');
  });

  it('prefers the asking module, then its dependencies, then main over test sources', () => {
    const paths = ['legacy/src/main/java/A.java', 'core/src/test/java/A.java', 'core/src/main/java/A.java', 'app/src/main/java/A.java'];
    expect(layout.prefer(paths, 'app', (p) => p)).toEqual([
      'app/src/main/java/A.java', 'core/src/main/java/A.java', 'core/src/test/java/A.java', 'legacy/src/main/java/A.java',
    ]);
  });

  it('reads Groovy settings and build files as well as Kotlin ones', () => {
    const groovy = BuildLayout.detect(new Map([
      ['settings.gradle', "rootProject.name = 'shop'\ninclude ':core', ':app'\ninclude ':libs:json'\n"],
      ['app/build.gradle', "dependencies {\n    implementation project(':core')\n    implementation project(path: ':libs:json')\n}\n"],
    ]));
    expect(groovy.modules.map((m) => `${m.name} ${m.dir || '.'}`)).toEqual([': .', ':app app', ':core core', ':libs:json libs/json']);
    expect([...groovy.modules.find((m) => m.dir === 'app')!.deps]).toEqual(['core', 'libs/json']);
  });

  it('says when there is no build file', () => {
    expect(BuildLayout.detect(new Map()).describe()).toBe('no Maven or Gradle build files');
  });
});
